import { modelFor, type GatewayState, type Route } from '../context.ts';
import { readJsonObject, sendJson } from '../http.ts';
import { billedTextCall, usageOf } from '../text/billing.ts';
import {
  chatCompletionBody,
  chatStreamError,
  chatStreamFrames,
  type ChatCall,
} from '../text/chat-format.ts';
import { writeEventStream } from '../text/event-stream.ts';
import { parseChatMessages, parseStreamFlag, parseTokenLimit } from '../text/messages.ts';
import { replyTo } from '../text/model.ts';
import { countPromptTokens } from '../text/tokens.ts';

const ENDPOINT = '/v1/chat/completions';

/** POST /v1/chat/completions: synchronous or streamed (SSE) chat completions. */
export function chatRoutes(_state: GatewayState): Route[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/chat\/completions$/,
      auth: true,
      faults: 'work',
      handler: async (ctx) => {
        const body = await readJsonObject(ctx.req);
        const spec = modelFor(ctx, body.model, 'text');
        const messages = parseChatMessages(body.messages);
        const maxTokens =
          body.max_completion_tokens !== undefined
            ? parseTokenLimit(body.max_completion_tokens, 'max_completion_tokens')
            : parseTokenLimit(body.max_tokens, 'max_tokens');
        const stream = parseStreamFlag(body.stream);
        const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
        const includeUsage = streamOptions?.include_usage === true;

        const promptTokens = countPromptTokens(messages);
        const reply = replyTo(spec.id, messages, maxTokens, spec.manner);
        const call: ChatCall = {
          id: `chatcmpl-${ctx.requestId.replace(/^req_/, '')}`,
          created: Math.floor(Date.now() / 1000),
          model: spec.id,
          reply,
          usage: usageOf(promptTokens, reply),
        };
        await billedTextCall(ctx, spec, ENDPOINT, call.usage, maxTokens, () =>
          stream
            ? writeEventStream(
                ctx,
                chatStreamFrames(call, includeUsage),
                chatStreamError(),
                ctx.state.options.tokenMs,
              )
            : sendJson(ctx, 200, chatCompletionBody(call)),
        );
      },
    },
  ];
}
