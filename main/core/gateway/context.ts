import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import type { GatewayProfile, GatewayProfileInput } from '../../../shared/gateway/profile.ts';
import { parseProfile } from '../../../shared/gateway/profile.ts';
import { createPool, type Pool } from './http/pool.ts';
import { sendRequest, type SendRequest } from './http/transport.ts';

/** The key, or how to get it when needed (safeStorage, the environment…). Never logged. */
export type KeySource =
  string | (() => string | null | undefined | Promise<string | null | undefined>);

export interface GatewayContextOptions {
  profile: GatewayProfile | GatewayProfileInput;
  apiKey: KeySource;
  catalogue?: Catalogue;
  /** One line per exchange, for a diagnostics log; already free of the key. */
  log?: (line: string) => void;
  /**
   * Sends one request (each redirect hop is one call). Tests replace it to see what leaves the
   * machine or to fake failures; default: undici's request() over this context's pool.
   */
  request?: SendRequest;
  now?: () => number;
}

/** Everything an endpoint function needs: where, with which key, knowing which models. */
export interface GatewayContext {
  profile: GatewayProfile;
  apiKey: KeySource;
  catalogue: Catalogue;
  log: (line: string) => void;
  request: SendRequest;
  now: () => number;
  pool: Pool;
}

export function createGatewayContext(options: GatewayContextOptions): GatewayContext {
  const profile = parseProfile(options.profile);
  return {
    profile,
    apiKey: options.apiKey,
    catalogue: options.catalogue ?? createCatalogue(),
    log: options.log ?? (() => {}),
    request: options.request ?? sendRequest,
    now: options.now ?? Date.now,
    pool: createPool(profile.timeouts),
  };
}

/** Closes idle connections; in-flight requests finish first. */
export function closeGatewayContext(context: GatewayContext): Promise<void> {
  return context.pool.close();
}
