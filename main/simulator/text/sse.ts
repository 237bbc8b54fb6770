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
