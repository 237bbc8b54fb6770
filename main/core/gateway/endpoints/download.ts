import type { Download, Outcome } from '../../../../shared/gateway/outcome.ts';
import { header } from '../classify/headers.ts';
import type { GatewayContext } from '../context.ts';
import { httpFailure } from '../http/call-json.ts';
import { openExchange, parseJson, type CallOptions } from '../http/exchange.ts';

/**
 * Fetches bytes as a stream, or whole: a temporary image link (`url`) or video content (`path`).
 * A 404 on a link is reported as expired; other failures say to retry the download, not the
 * generation (interface 7 rule 6). A body cut short errors the stream with a GatewayError.
 */
export async function download(
  context: GatewayContext,
  target: { url: string } | { path: string },
  options: CallOptions = {},
): Promise<Outcome<Download>> {
  const answer = await openExchange(context, { method: 'GET', ...target }, options);
  if (!('response' in answer)) return answer;
  const { response } = answer;
  if (response.status < 200 || response.status >= 300) {
    const text = await answer.text();
    if (!text.ok) return text;
    return httpFailure(answer, parseJson(text.text));
  }
  const length = header(response.headers, 'content-length');
  let body: ReadableStream<Uint8Array> | null = null;
  return {
    ok: true,
    status: response.status,
    requestIds: answer.requestIds,
    value: {
      get body() {
        return (body ??= answer.stream());
      },
      whole: (limits) => answer.whole(limits),
      contentType: header(response.headers, 'content-type'),
      contentLength: length === null ? null : Number(length),
    },
  };
}

/** A temporary image link (interface 2.5 rule 4: copy it at once). */
export function downloadImage(
  context: GatewayContext,
  url: string,
  options: CallOptions = {},
): Promise<Outcome<Download>> {
  return download(context, { url }, options);
}
