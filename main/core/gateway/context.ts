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
  /** Closed (closeGatewayContext): an exchange begun now is refused, nothing sent. */
  closed: boolean;
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
    closed: false,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  };
}

/**
 * How long idle connections outlive their closed context: destroying a pool's sockets takes
 * 5-8 ms of the thread for the ~40 of a run at 32 in flight (undici's teardown of each client),
 * which a process that ends meanwhile (the CLI after its run) leaves to the system.
 */
export const IDLE_POOL_DESTROY_DELAY_MS = 1_000;

/**
 * Closes idle connections; in-flight requests finish first. With none in flight or waiting,
 * the sockets are destroyed a moment later, on a timer that does not keep the process alive
 * (idle sockets do not either): a process that stays frees them the same, one that ends first
 * does not spend its last milliseconds on them. Nothing is lost either way.
 */
export function closeGatewayContext(context: GatewayContext): Promise<void> {
  context.closed = true;
  const busy = Object.values(context.pool.stats).some(
    (origin) => origin.running > 0 || origin.pending > 0,
  );
  if (busy) return context.pool.close();
  const destroy = () => void context.pool.destroy().catch(() => {}); // (nothing in flight to fail)
  setTimeout(destroy, IDLE_POOL_DESTROY_DELAY_MS).unref();
  return Promise.resolve();
}
