import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultPicker, FaultScope } from './faults.ts';
import { ApiError, type ResponseTarget } from './http.ts';
import type { KeyRing, KeyState } from './keys.ts';
import type { Ledger } from './ledger.ts';
import type { ModelSpec } from './models.ts';
import type { ResolvedOptions } from './options.ts';
import type { Random } from './random.ts';

/** Everything shared by all requests of one running simulator. */
export interface GatewayState {
  options: ResolvedOptions;
  keys: KeyRing;
  ledger: Ledger;
  faults: FaultPicker;
  /** Seeded: latency jitter and fault draws. */
  random: Random;
  /** `http://127.0.0.1:PORT`, known once listening. */
  baseUrl: string;
  models: Map<string, ModelSpec>;
}

export interface RequestContext extends ResponseTarget {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Capture groups of the route's pattern. */
  params: string[];
  /** The authenticated key; null on public routes (temporary file links). */
  key: KeyState | null;
  state: GatewayState;
  /** Aborted when the client goes away before the response is complete. */
  signal: AbortSignal;
  /**
   * Waits until the latency model's time for `units` (images, seconds…) has passed since the
   * request arrived.
   */
  work(units: number): Promise<void>;
}

export type Handler = (ctx: RequestContext) => Promise<void>;

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Matched against the whole path; capture groups become ctx.params. */
  pattern: RegExp;
  /** Whether the route needs `Authorization: Bearer sk-…`. */
  auth: boolean;
  /** Which fault counter the route draws from; null for none. */
  faults: FaultScope | null;
  /** Error body shape: ordinary `{error: …}` (default) or task style `{code, message, data}`. */
  errors?: 'api' | 'task';
  handler: Handler;
}

export function requireKey(ctx: RequestContext): KeyState {
  if (!ctx.key) throw new Error('requireKey used on a public route');
  return ctx.key;
}

/** Looks up a model the key may use; 404 when unknown, 403 outside the key's whitelist. */
export function modelFor<K extends ModelSpec['kind']>(
  ctx: RequestContext,
  name: unknown,
  kind: K,
): Extract<ModelSpec, { kind: K }> {
  if (typeof name !== 'string' || name === '') {
    throw new ApiError(
      400,
      'invalid_request_error',
      'missing_model',
      'The "model" field is required.',
      { param: 'model' },
    );
  }
  ctx.state.keys.authorizeModel(requireKey(ctx), name);
  const spec = ctx.state.models.get(name);
  if (!spec || spec.kind !== kind) {
    const known = [...ctx.state.models.values()].filter((m) => m.kind === kind).map((m) => m.id);
    throw new ApiError(
      404,
      'invalid_request_error',
      'model_not_found',
      `Model "${name}" is not available for this endpoint. Available ${kind} models: ${known.join(', ')}.`,
      { param: 'model' },
    );
  }
  return spec as Extract<ModelSpec, { kind: K }>;
}
