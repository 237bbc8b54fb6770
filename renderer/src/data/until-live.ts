import { contractMethods } from '../../../shared/api/channels.ts';
import type { Api } from '../../../shared/api/types.ts';

/**
 * The API with every call held until `live` settles: the window's event stream is then
 * registered with the service, so whatever a read answers, a change made after it is told.
 * A read answered before that could miss a change for good: a stream opened without a cursor
 * replays nothing, and a settings change is never replayed. (The stream itself passes.)
 */
export function untilLive(api: Api, live: Promise<void>): Api {
  const areas = api as unknown as Record<string, Record<string, (input?: unknown) => unknown>>;
  const held: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const { area, method } of contractMethods()) {
    const call = areas[area]![method]!;
    held[area] ??= {};
    held[area][method] = async (input?: unknown) => {
      await live;
      return call(input);
    };
  }
  return { ...held, events: api.events } as unknown as Api;
}
