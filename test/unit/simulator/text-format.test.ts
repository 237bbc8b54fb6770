import { describe, expect, it } from 'vitest';
import { chatStreamFrames, type ChatCall } from '../../../main/simulator/text/chat-format.ts';
import { replyTo } from '../../../main/simulator/text/model.ts';
import {
  responseStreamFrames,
  type ResponsesCall,
} from '../../../main/simulator/text/responses-format.ts';
import { SSE_DONE, SSE_KEEP_ALIVE } from '../../../main/simulator/text/sse.ts';
import { parseSse, sseJson } from '../../integration/simulator/text-sse-parser.ts';

const messages = [{ role: 'user', content: 'one two three four five six seven eight' }];
const usage = { promptTokens: 11, completionTokens: 0, totalTokens: 11 };

function chatCall(maxTokens: number | null): ChatCall {
  return {
    id: 'chatcmpl-1',
    created: 1,
    model: 'm',
    reply: replyTo('m', messages, maxTokens),
    usage,
  };
}

function responsesCall(maxTokens: number | null): ResponsesCall {
  return {
    id: 'resp_1',
    messageId: 'msg_1',
    createdAt: 1,
    model: 'm',
    instructions: null,
    maxOutputTokens: maxTokens,
    reply: replyTo('m', messages, maxTokens),
    usage,
  };
}

describe('chatStreamFrames', () => {
  it('puts a keep-alive before every 4th content piece, each followed by an empty content delta', () => {
    const call = chatCall(null);
    const frames = chatStreamFrames(call, false);
    const keepAlives = frames.filter((f) => f === SSE_KEEP_ALIVE).length;
    // One after the role chunk, then one per 4 pieces after the first.
    expect(keepAlives).toBe(1 + Math.floor((call.reply.pieces.length - 1) / 4));
    frames.forEach((frame, i) => {
      if (frame === SSE_KEEP_ALIVE && i > 1)
        expect(frames[i + 1]).toContain('"delta":{"content":""}');
    });
    expect(frames.at(-1)).toBe(SSE_DONE);
  });

  it('ends with finish_reason "length" when the reply was cut', () => {
    const chunks = sseJson(parseSse(chatStreamFrames(chatCall(2), false).join(''))).map(
      (c) => c.json,
    );
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'length' });
  });
});

describe('responseStreamFrames', () => {
  it('numbers events in order and ends with response.completed', () => {
    const events = sseJson(parseSse(responseStreamFrames(responsesCall(null)).join('')));
    expect(events.map((e) => e.json.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)!.event).toBe('response.completed');
  });

  it('ends with response.incomplete when max_output_tokens cut the reply', () => {
    const events = sseJson(parseSse(responseStreamFrames(responsesCall(3)).join('')));
    const last = events.at(-1)!;
    expect(last.event).toBe('response.incomplete');
    expect(last.json.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
    const deltas = events.filter((e) => e.event === 'response.output_text.delta');
    expect(deltas).toHaveLength(3);
  });
});
