import type { RequestIds } from '../../../../shared/gateway/outcome.ts';
import { redact } from '../../../../shared/gateway/redact.ts';
import { header, type HeaderBag } from './headers.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The gateway's request id (response header, name from the profile) and `upstream_request_id`,
 * which may stand at the top of the body, inside `error`, or inside `metadata`.
 */
export function requestIdsOf(
  headers: HeaderBag | undefined,
  body: unknown,
  requestIdHeader: string,
  secrets: Array<string | null | undefined> = [],
): RequestIds {
  let upstream: string | null = null;
  if (isObject(body)) {
    for (const place of [body, body.error, body.metadata]) {
      if (isObject(place) && typeof place.upstream_request_id === 'string') {
        upstream = place.upstream_request_id;
        break;
      }
    }
  }
  return {
    requestId: cleanId(header(headers, requestIdHeader), secrets),
    upstreamRequestId: cleanId(upstream, secrets),
  };
}

/** Ids are shown and stored: a gateway echoing odd values (even the key) must not leak. */
function cleanId(id: string | null, secrets: Array<string | null | undefined>): string | null {
  if (id === null || id.trim() === '') return null;
  return redact(id.slice(0, 200), ...secrets);
}

/** Keeps what is known: ids from the headers survive a body that never arrived. */
export function mergeRequestIds(first: RequestIds, second: RequestIds | undefined): RequestIds {
  return {
    requestId: first.requestId ?? second?.requestId ?? null,
    upstreamRequestId: first.upstreamRequestId ?? second?.upstreamRequestId ?? null,
  };
}
