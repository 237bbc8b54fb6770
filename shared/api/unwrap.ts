import { ApiRequestError } from './api-request-error.ts';
import { contractMethods } from './channels.ts';
import type { Result } from './errors.ts';
import type { Api, RawApi } from './types.ts';

export { ApiRequestError };

/** The API with errors thrown, for screens: one wrapper over any transport. */
export function unwrap(raw: RawApi): Api {
  const api: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  const rawAreas = raw as unknown as Record<
    string,
    Record<string, (input?: unknown) => Promise<Result<unknown>>>
  >;
  for (const { area, method } of contractMethods()) {
    const call = rawAreas[area]![method]!;
    api[area] ??= {};
    api[area][method] = async (input?: unknown) => {
      const result = await call(input);
      if (!result.ok) throw new ApiRequestError(result.error);
      return result.value;
    };
  }
  return { ...api, events: raw.events } as unknown as Api;
}
