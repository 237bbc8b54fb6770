import type { ChatResult, ResponsesResult } from '../../../../shared/gateway/outcome.ts';
import {
  ChatChunkSchema,
  ChatResponseSchema,
  ResponsesBodySchema,
  ResponsesEventSchema,
} from '../../../../shared/gateway/wire/text.ts';

export type Reading<T> = { ok: true; value: T } | { ok: false; detail: string };

/** Interface 2.6: the text at `choices[0].message.content`, and the token counters. */
export function readChatResponse(body: unknown): Reading<ChatResult> {
  const parsed = ChatResponseSchema.safeParse(body);
  if (!parsed.success) return { ok: false, detail: 'it has no choices[0].message' };
  const usage = parsed.data.usage;
  return {
    ok: true,
    value: {
      content: parsed.data.choices[0]?.message?.content ?? '',
      usage: usage
        ? {
            promptTokens: usage.prompt_tokens ?? 0,
            completionTokens: usage.completion_tokens ?? 0,
            totalTokens: usage.total_tokens ?? 0,
          }
        : null,
      raw: body,
    },
  };
}

/** The text piece of one streamed chat chunk; '' for empty deltas, role chunks, usage chunks. */
export function chatDelta(data: unknown): string {
  const parsed = ChatChunkSchema.safeParse(data);
  if (!parsed.success) return '';
  return parsed.data.choices?.[0]?.delta?.content ?? '';
}

/** Responses API: `output_text` when given, otherwise the text parts of `output`. */
export function readResponsesBody(body: unknown): Reading<ResponsesResult> {
  const parsed = ResponsesBodySchema.safeParse(body);
  if (!parsed.success) return { ok: false, detail: 'it is not a response object' };
  if (typeof parsed.data.output_text === 'string') {
    return { ok: true, value: { text: parsed.data.output_text, raw: body } };
  }
  const parts = (parsed.data.output ?? []).flatMap((item) =>
    (item.content ?? []).filter((part) => part.type === 'output_text' || part.type === 'text'),
  );
  return { ok: true, value: { text: parts.map((part) => part.text ?? '').join(''), raw: body } };
}

/** The text piece of one Responses stream event; '' for every other event. */
export function responsesDelta(data: unknown): string {
  const parsed = ResponsesEventSchema.safeParse(data);
  if (!parsed.success || parsed.data.type !== 'response.output_text.delta') return '';
  return parsed.data.delta ?? '';
}
