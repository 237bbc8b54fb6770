import { modelFor, type GatewayState, type Route } from '../context.ts';
import { readJsonObject, sendJson } from '../http.ts';
import { billedTextCall, usageOf } from '../text/billing.ts';
import { writeEventStream } from '../text/event-stream.ts';
import { parseResponsesInput, parseStreamFlag, parseTokenLimit } from '../text/messages.ts';
import { replyTo } from '../text/model.ts';
import {
  responseBody,
  responseStreamError,
  responseStreamFrames,
  type ResponsesCall,
} from '../text/responses-format.ts';
import { countPromptTokens } from '../text/tokens.ts';

const ENDPOINT = '/v1/responses';

/** POST /v1/responses: the Responses API, synchronous or streamed as named SSE events. */
export function responsesRoutes(_state: GatewayState): Route[] {
  return [
    {
      method: 'POST',
      pattern: /^\/v1\/responses$/,
      auth: true,
      faults: 'work',
      handler: async (ctx) => {
        const body = await readJsonObject(ctx.req);
        const spec = modelFor(ctx, body.model, 'text');
        const messages = parseResponsesInput(body.input, body.instructions);
        const maxTokens = parseTokenLimit(body.max_output_tokens, 'max_output_tokens');
        const stream = parseStreamFlag(body.stream);

        const promptTokens = countPromptTokens(messages);
        const reply = replyTo(spec.id, messages, maxTokens, spec.manner);
        const tag = ctx.requestId.replace(/^req_/, '');
        const call: ResponsesCall = {
          id: `resp_${tag}`,
          messageId: `msg_${tag}`,
          createdAt: Math.floor(Date.now() / 1000),
          model: spec.id,
          instructions: typeof body.instructions === 'string' ? body.instructions : null,
          maxOutputTokens: maxTokens,
          reply,
          usage: usageOf(promptTokens, reply),
        };
        await billedTextCall(ctx, spec, ENDPOINT, call.usage, maxTokens, () =>
          stream
            ? writeEventStream(
                ctx,
                responseStreamFrames(call),
                responseStreamError(),
                ctx.state.options.tokenMs,
              )
            : sendJson(ctx, 200, responseBody(call)),
        );
      },
    },
  ];
}
