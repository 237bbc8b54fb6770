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
  /**
   * The largest JSON answer read into memory (default DEFAULT_MAX_ANSWER_BYTES); a larger one
   * is a failed call, its body not read.
   */
  maxAnswerBytes?: number;
}

/**
 * 256 MB: room for n = 10 images of about 19 MB each as base64, far above what gateways send
 * (a few MB an image), while a held answer (its bytes, its text, the parsed JSON, the decoded
 * images: about four times its size) stays near 1 GB, and well below V8's longest string
 * (about 512 MB), past which an answer cannot be read at all.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 2 ** 20;

/** Everything an endpoint function needs: where, with which key, knowing which models. */
export interface GatewayContext {
  profile: GatewayProfile;
  apiKey: KeySource;
  catalogue: Catalogue;
  /** Null when nobody reads the lines: then none is scrubbed of the key for nothing. */
  log: ((line: string) => void) | null;
  request: SendRequest;
  now: () => number;
  pool: Pool;
  maxAnswerBytes: number;
}

export function createGatewayContext(options: GatewayContextOptions): GatewayContext {
  const profile = parseProfile(options.profile);
  return {
    profile,
    apiKey: options.apiKey,
    catalogue: options.catalogue ?? createCatalogue(),
    log: options.log ?? null,
    request: options.request ?? sendRequest,
    now: options.now ?? Date.now,
    pool: createPool(profile.timeouts),
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  };
}

/**
 * Closes idle connections; in-flight requests finish first. With none in flight or waiting,
 * the sockets are destroyed without waiting for their handles to close: nothing is lost, and
 * the wait held the end of a run by 10-15 ms.
 */
export function closeGatewayContext(context: GatewayContext): Promise<void> {
  const busy = Object.values(context.pool.stats).some(
    (origin) => origin.running > 0 || origin.pending > 0,
  );
  if (busy) return context.pool.close();
  context.pool.destroy().catch(() => {}); // (nothing in flight to fail)
  return Promise.resolve();
}
