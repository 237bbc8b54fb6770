import type { GatewayFailure } from '../../../../shared/gateway/outcome.ts';
import { classifyFailure } from '../classify/classify.ts';
import type { GatewayContext } from '../context.ts';

/** A request Atelier will not send: classified like any failure, and nothing leaves the machine. */
export function refuse(context: GatewayContext, what: string, problems: string[]): GatewayFailure {
  const failure = classifyFailure(
    { kind: 'invalid', problems },
    {
      requestIdHeader: context.profile.requestIdHeader,
      maxRetryAfterMs: context.profile.maxRetryAfterMs,
      nowMs: context.now(),
    },
  );
  context.log?.(`${what} → not sent: ${failure.message}`);
  return failure;
}
