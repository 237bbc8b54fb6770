/** Server-sent events framing (https://html.spec.whatwg.org/#server-sent-events). */

export function sseData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export function sseEvent(name: string, value: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`;
}

/** A comment line: clients ignore it; gateways send it to keep idle connections open. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** The chat completions end-of-stream marker. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** What a gateway sends when the upstream model fails mid-answer (the `stream-error` fault). */
export const STREAM_ERROR = {
  code: 'upstream_error',
  message:
    'The upstream model stopped in the middle of its answer (a simulated failure). Nothing was charged; ask again.',
};
