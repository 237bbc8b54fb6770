import type { GatewayFailure } from '../../../../shared/gateway/outcome.ts';

/** Thrown by streams (chat, responses, downloads) when they fail part-way; carries the outcome. */
export class GatewayError extends Error {
  readonly failure: GatewayFailure;

  constructor(failure: GatewayFailure) {
    super(failure.message);
    this.name = 'GatewayError';
    this.failure = failure;
  }
}

/**
 * The system or undici error code. undici's request() rejects with the error itself; a `cause`
 * chain (a wrapped error) and an AggregateError (every address refused) are looked into too.
 */
export function networkCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const record = current as { code?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof record.code === 'string') return record.code;
    current = record.cause ?? record.errors?.[0];
  }
  return null;
}
