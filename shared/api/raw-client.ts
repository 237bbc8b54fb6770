import { contractMethods } from './channels.ts';
import type { Result } from './errors.ts';
import type { EventSource, RawApi } from './types.ts';

/** How a transport sends one call; it never throws, failures come back as `Result`. */
export type SendCall = (area: string, method: string, input: unknown) => Promise<Result<unknown>>;

/**
 * Builds the whole raw API from the contract's method list: the preload and the web client
 * are this with different `send`s, so neither can lack or add a method.
 */
export function buildRawApi(send: SendCall, events: EventSource): RawApi {
  const api: Record<string, Record<string, (input?: unknown) => Promise<Result<unknown>>>> = {};
  for (const { area, method } of contractMethods()) {
    api[area] ??= {};
    api[area][method] = (input?: unknown) => send(area, method, input ?? {});
  }
  return { ...api, events } as unknown as RawApi;
}
