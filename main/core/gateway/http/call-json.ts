import type { Outcome, RequestIds } from '../../../../shared/gateway/outcome.ts';
import type { FailureInput } from '../classify/classify.ts';
import { header } from '../classify/headers.ts';
import { mergeRequestIds } from '../classify/request-ids.ts';
import type { GatewayContext } from '../context.ts';
import {
  openExchange,
  parseJson,
  type CallOptions,
  type ExchangeSpec,
  type OpenAnswer,
} from './exchange.ts';

/** What a reader makes of a 2xx JSON body: the value, or why it is a failure after all. */
export type BodyReading<T> = { ok: true; value: T } | FailureInput;

/** What a reader uses to keep the key out of what it returns (echoed text, links). */
export type KeyScrubber = Pick<OpenAnswer, 'cleanText' | 'sealUrl'>;

/**
 * One request with a JSON answer: sends, reads the whole body, classifies any non-2xx, and
 * hands a 2xx body to `read`. Request ids from the header and the body are kept either way.
 */
export async function callJson<T>(
  context: GatewayContext,
  spec: ExchangeSpec,
  options: CallOptions,
  read: (body: unknown, scrub: KeyScrubber) => BodyReading<T>,
): Promise<Outcome<T>> {
  const answer = await openExchange(context, spec, options);
  if (!('response' in answer)) return answer;
  const text = await answer.text();
  if (!text.ok) return text;
  const { response } = answer;
  const body = parseJson(text.text);
  const contentType = header(response.headers, 'content-type');

  if (response.status < 200 || response.status >= 300) {
    const failure = answer.fail({
      kind: 'http',
      status: response.status,
      headers: response.headers,
      body,
      ...(body === undefined ? { contentType } : {}),
    });
    answer.close(failure.message);
    return failure;
  }
  const requestIds = mergeRequestIds(answer.idsOf(body), answer.requestIds);
  const reading: BodyReading<T> =
    body === undefined
      ? { kind: 'bad-body', status: response.status, contentType }
      : read(body, answer);
  if ('ok' in reading) {
    answer.close();
    return { ok: true, value: reading.value, status: response.status, requestIds };
  }
  const failure = answer.fail(withIds(reading, requestIds));
  answer.close(failure.message);
  return failure;
}

function withIds(input: FailureInput, requestIds: RequestIds): FailureInput {
  return input.kind === 'http' || input.kind === 'invalid' || input.kind === 'no-key'
    ? input
    : { ...input, requestIds };
}
