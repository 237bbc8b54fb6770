import type { ApiError } from '../../../shared/api/errors.ts';
import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';

/**
 * A failed prompt-help call as the contract carries it: what the gateway said, and what the
 * person can do about it here (the queue's advice, "resume the queue", does not apply: nothing
 * is retried by itself; the prompts that arrived are kept). Pure.
 */
export function promptHelpError(failure: GatewayFailure, model: string): ApiError {
  const said = failure.said ? ` (${failure.said})` : '';
  const id = failure.requestIds.requestId ?? failure.requestIds.upstreamRequestId;
  const details = {
    kind: failure.kind,
    status: failure.status,
    gatewayCode: failure.code,
    requestId: id,
  };
  const withId = (message: string) => (id ? `${message} (request id ${id})` : message);
  const error = (code: ApiError['code'], message: string): ApiError => ({
    code,
    message: withId(message),
    details,
  });
  switch (failure.kind) {
    case 'auth':
      return error(
        failure.code === 'no_api_key' ? 'key-missing' : 'gateway-error',
        `The gateway refused the API key${said}. Check or replace the key, then ask again.`,
      );
    case 'permission':
      return error(
        'gateway-error',
        `The gateway does not let this key use ${model}${said}. Choose another text model for prompt help, or allow ${model} for the key in the gateway's console.`,
      );
    case 'balance':
      return error(
        'gateway-error',
        `The account's balance or the key's quota is too low for ${model}${said}. Top up or raise the key's cap in the gateway's console, then ask again.`,
      );
    case 'not-found':
      return error(
        'gateway-error',
        `The gateway does not offer ${model}${said}. Choose another text model for prompt help.`,
      );
    case 'rate-limited':
      return error(
        'gateway-error',
        `The gateway is rate limiting${said}. Wait a moment, then ask again.`,
      );
    case 'invalid-request':
      return failure.sent
        ? error(
            'gateway-error',
            `The gateway refused the request to ${model}${said}. The model may not take chat requests or streaming; choose another text model for prompt help.`,
          )
        : { code: 'invalid-argument', message: failure.message };
    case 'network':
      return error(
        failure.sent ? 'gateway-error' : 'gateway-unreachable',
        failure.sent
          ? `The connection to the gateway dropped before ${model} finished its answer${failure.code ? ` (${failure.code})` : ''}. The prompts that arrived are kept; ask again for the rest.`
          : `Could not reach the gateway${failure.code ? ` (${failure.code})` : ''}. Check its address and the network, then ask again.`,
      );
    case 'canceled':
      return { code: 'conflict', message: 'Canceled.' };
    default:
      // 5xx, time-outs, an answer that broke off or could not be read
      return error(
        'gateway-error',
        `${model} did not finish its answer${said || ` (${failure.kind})`}. The prompts that arrived are kept; ask again for the rest.`,
      );
  }
}
