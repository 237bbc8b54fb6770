import type { FaultRule } from './faults.ts';
import type { KeyConfig } from './keys.ts';
import type { LatencyModel } from './latency.ts';
import { DEFAULT_MODELS, type ModelSpec } from './models.ts';

export interface GatewayOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Always loopback by default; the simulator is for this machine only. */
  host?: string;
  /** Shortcut for latency.fixedMs. */
  latencyMs?: number;
  latency?: Partial<LatencyModel>;
  /** A `--faults` spec string or parsed rules. */
  faults?: string | FaultRule[];
  seed?: number;
  /** Keys the gateway accepts; default: one demo key with no limits. */
  keys?: KeyConfig[];
  /** Account balance (user quota). */
  balance?: number;
  models?: ModelSpec[];
  /** How long a returned image URL stays downloadable. */
  urlTtlMs?: number;
  /** The clock links expire by (tests move it instead of waiting); default Date.now. */
  now?: () => number;
  retryAfterSeconds?: number;
  slowBodyMs?: number;
  /** How long a video task takes from submit to SUCCESS. */
  videoDurationMs?: number;
  /** The pause between a text stream's frames (a model writing); 0: as fast as the socket takes them. */
  tokenMs?: number;
  /** Gateway-specific names (interface: "svc" stands in for the service's own name). */
  requestIdHeader?: string;
  advancedSegment?: string;
  partialKey?: string;
  /** 'both' returns `url` and `b64_json` on every image whatever was asked (clients must cope). */
  imageResponse?: ImageResponseMode;
  /** Where `requested_n`, `returned_n`, `failed_requests` stand in a partial answer. */
  partialPlacement?: PartialPlacement;
  /**
   * The name a multipart edit's picture must have: 'image', 'image[]', or 'any' of the two
   * (default). Both in one request are always refused.
   */
  editImageField?: EditImageField;
}

export type EditImageField = 'image' | 'image[]' | 'any';

export type ImageResponseMode = 'as-asked' | 'both';
/**
 * The interface names the partial-success fields but not their place:
 * 'metadata' → `metadata: {svc_partial: true, requested_n, …}`;
 * 'top-level' → `metadata: {svc_partial: true}` and the counts beside `data`;
 * 'nested' → `metadata: {svc_partial: {requested_n, …}}`.
 */
export type PartialPlacement = 'metadata' | 'top-level' | 'nested';

export interface ResolvedOptions {
  port: number;
  host: string;
  latency: LatencyModel;
  seed: number;
  keys: KeyConfig[];
  balance: number;
  models: ModelSpec[];
  urlTtlMs: number;
  now: () => number;
  retryAfterSeconds: number;
  slowBodyMs: number;
  videoDurationMs: number;
  tokenMs: number;
  requestIdHeader: string;
  advancedSegment: string;
  partialKey: string;
  imageResponse: ImageResponseMode;
  partialPlacement: PartialPlacement;
  editImageField: EditImageField;
}

export const DEMO_KEY = 'sk-atelier-demo-0000000000000000';

export function resolveOptions(options: GatewayOptions): ResolvedOptions {
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    latency: {
      fixedMs: options.latency?.fixedMs ?? options.latencyMs ?? 0,
      perImageMs: options.latency?.perImageMs ?? 0,
      jitterMs: options.latency?.jitterMs ?? 0,
    },
    seed: options.seed ?? 1,
    keys: options.keys ?? [{ key: DEMO_KEY, name: 'demo' }],
    balance: options.balance ?? 1e15,
    models: options.models ?? DEFAULT_MODELS,
    urlTtlMs: options.urlTtlMs ?? 10 * 60_000,
    now: options.now ?? Date.now,
    retryAfterSeconds: options.retryAfterSeconds ?? 1,
    slowBodyMs: options.slowBodyMs ?? 1000,
    videoDurationMs: options.videoDurationMs ?? 3000,
    tokenMs: options.tokenMs ?? 0,
    requestIdHeader: options.requestIdHeader ?? 'X-Svc-Request-Id',
    advancedSegment: options.advancedSegment ?? 'svc',
    partialKey: options.partialKey ?? 'svc_partial',
    imageResponse: options.imageResponse ?? 'as-asked',
    partialPlacement: options.partialPlacement ?? 'metadata',
    editImageField: options.editImageField ?? 'any',
  };
}
