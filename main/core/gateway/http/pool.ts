import type { Agent as UndiciAgent } from 'undici';
import { Agent } from './undici-core.ts';
import type { GatewayTimeouts } from '../../../../shared/gateway/profile.ts';

/**
 * One connection pool per gateway profile, the dispatcher of every request (undici's
 * request(), see transport.ts). Why an Agent of our own and not the global one: the connect
 * time-out must be a setting of the profile, because a failure to connect is the one time-out
 * that proves nothing was sent (safe to retry) — and idle connections are kept long enough to
 * be reused between images.
 */
export function createPool(timeouts: Pick<GatewayTimeouts, 'connectMs'>): UndiciAgent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    // Atelier's own phase timers decide time-outs (they know what was sent); undici's are off.
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 300_000,
  });
}

export type Pool = ReturnType<typeof createPool>;
