import type { TextUsage } from './billing.ts';
import type { TextReply } from './model.ts';
import { SSE_DONE, SSE_KEEP_ALIVE, sseData, STREAM_ERROR } from './sse.ts';

/** What every chat completion object and chunk of one call share. */
export interface ChatCall {
  id: string;
  created: number;
  model: string;
  reply: TextReply;
  usage: TextUsage;
}

function usageBody(usage: TextUsage) {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };
}

/** The non-streamed `chat.completion` object. */
export function chatCompletionBody(call: ChatCall) {
  return {
    id: call.id,
    object: 'chat.completion',
    created: call.created,
    model: call.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: call.reply.text, refusal: null },
        logprobs: null,
        finish_reason: call.reply.finishReason,
      },
    ],
    usage: usageBody(call.usage),
    system_fingerprint: null,
  };
}

/** Content pieces between which a keep-alive comment is sent. */
const KEEP_ALIVE_EVERY = 4;

/**
 * The SSE frames of a streamed chat completion, as real gateways send them: a role chunk,
 * empty `delta: {}` and `delta: {content: ''}` chunks, keep-alive comments between chunks,
 * one chunk per token, a final chunk with finish_reason, the usage chunk when asked, [DONE].
 */
export function chatStreamFrames(call: ChatCall, includeUsage: boolean): string[] {
  const chunk = (delta: object, finishReason: string | null = null) => ({
    id: call.id,
    object: 'chat.completion.chunk',
    created: call.created,
    model: call.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const frames = [
    sseData(chunk({ role: 'assistant', content: '' })),
    SSE_KEEP_ALIVE,
    sseData(chunk({})),
  ];
  call.reply.pieces.forEach((piece, index) => {
    if (index > 0 && index % KEEP_ALIVE_EVERY === 0) {
      frames.push(SSE_KEEP_ALIVE, sseData(chunk({ content: '' })));
    }
    frames.push(sseData(chunk({ content: piece })));
  });
  frames.push(sseData(chunk({}, call.reply.finishReason)));
  if (includeUsage) {
    frames.push(sseData({ ...chunk({}), choices: [], usage: usageBody(call.usage) }));
  }
  frames.push(SSE_DONE);
  return frames;
}

/** The error chunk a chat stream breaks off with: an ordinary `error` object (interface 7). */
export function chatStreamError(): string {
  return sseData({ error: { type: 'server_error', ...STREAM_ERROR, param: null } });
}
