import type { ZodType } from 'zod';
import { contract } from './contract.ts';
import type { Area, MethodName } from './types.ts';

/** The IPC channel of one method. */
export const channelOf = (area: string, method: string): string => `atelier:${area}.${method}`;

/** Events to the renderer, and the renderer's subscribe and unsubscribe. */
export const EVENTS_CHANNEL = 'atelier:events';
export const SUBSCRIBE_CHANNEL = 'atelier:events.subscribe';
export const UNSUBSCRIBE_CHANNEL = 'atelier:events.unsubscribe';

/** Every method of the contract, for transports built from it. */
export function contractMethods(): Array<{ area: Area; method: MethodName<Area> }> {
  return (Object.keys(contract) as Area[]).flatMap((area) =>
    Object.keys(contract[area]).map((method) => ({ area, method: method as MethodName<Area> })),
  );
}

/** The spec of `area.method`, or null when the contract has no such method. */
export function findMethod(
  area: string,
  method: string,
): { input: ZodType; output: ZodType } | null {
  if (!Object.hasOwn(contract, area)) return null;
  const methods = contract[area as Area] as Record<string, { input: ZodType; output: ZodType }>;
  return Object.hasOwn(methods, method) ? methods[method]! : null;
}
