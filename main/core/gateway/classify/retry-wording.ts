/**
 * The words a retryable failure's message uses while another try is planned. The client
 * classifies a failure before anyone knows whether tries remain; whoever gives up replaces
 * them with asFinal, so a failure that is final never promises another try.
 */
export const WILL_RETRY = 'it will be tried again';

/** The promise and what qualifies it ("in 2.5 s"), up to the end of its sentence or clause. */
const PROMISE = new RegExp(`${WILL_RETRY}.*?(?=;|\\.(?:\\s|$))`);

/** The message of a failure after which no try will come: says how many were made instead. */
export function asFinal(message: string, tries: number): string {
  const gaveUp = `Atelier gave up after ${tries} ${tries === 1 ? 'try' : 'tries'}`;
  return PROMISE.test(message) ? message.replace(PROMISE, gaveUp) : `${message} ${gaveUp}.`;
}
