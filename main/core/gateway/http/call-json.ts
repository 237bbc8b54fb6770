import type { GatewayFailure, Outcome, RequestIds } from '../../../../shared/gateway/outcome.ts';
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
 * hands a 2xx body to `read`. Request ids from the header and the body are kept either way,
 * even if reading the answer throws: the request was sent and may have been charged.
 */
export async function callJson<T>(
  context: GatewayContext,
  spec: ExchangeSpec,
  options: CallOptions,
  read: (body: unknown, scrub: KeyScrubber) => BodyReading<T>,
): Promise<Outcome<T>> {
  const answer = await openExchange(context, spec, options);
  if (!('response' in answer)) return answer;
  try {
    return await readAnswer(answer, read);
  } catch (error) {
    const detail = `reading it failed: ${(error as Error)?.message ?? String(error)}`;
    const failure = answer.fail({ kind: 'bad-body', status: answer.response.status, detail });
    answer.close(failure.message);
    return failure;
  }
}

async function readAnswer<T>(
  answer: OpenAnswer,
  read: (body: unknown, scrub: KeyScrubber) => BodyReading<T>,
): Promise<Outcome<T>> {
  const { response } = answer;
  const text = await answer.text();
  if (!text.ok) return text;
  const body = parseJson(text.text);
  if (response.status < 200 || response.status >= 300) return httpFailure(answer, body);
  const contentType = header(response.headers, 'content-type');
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

/** A non-2xx answer as a failure, its (parsed) body read for the error; closes the answer. */
export function httpFailure(answer: OpenAnswer, body: unknown): GatewayFailure {
  const { response } = answer;
  const failure = answer.fail({
    kind: 'http',
    status: response.status,
    headers: response.headers,
    body,
    ...(body === undefined ? { contentType: header(response.headers, 'content-type') } : {}),
  });
  answer.close(failure.message);
  return failure;
}

function withIds(input: FailureInput, requestIds: RequestIds): FailureInput {
  return input.kind === 'http' || input.kind === 'invalid' || input.kind === 'no-key'
    ? input
    : { ...input, requestIds };
}
