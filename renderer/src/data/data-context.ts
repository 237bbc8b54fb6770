import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ApiEventOf, ApiEventType } from '../../../shared/api/events.ts';
import type { Api } from '../../../shared/api/types.ts';
import type { Data } from './data.ts';

export const DataContext = createContext<Data | null>(null);

export function useData(): Data {
  const data = useContext(DataContext);
  if (!data) throw new Error('useData needs a <DataContext value={data}> above it.');
  return data;
}

export function useApi(): Api {
  return useData().api;
}

/** Whether the events reach the window (actions are disabled while they do not). */
export function useConnection() {
  const { connection } = useData();
  return useSyncExternalStore(connection.subscribe, connection.get);
}

/** While the window is cut off from the service: why, and when it tries again. */
export function useConnectionProblem() {
  const { connection } = useData();
  return useSyncExternalStore(connection.subscribe, connection.problem);
}

/** Calls `listener` with each event of `type` while mounted (the newest listener each time). */
export function useEvent<T extends ApiEventType>(
  type: T,
  listener: (event: ApiEventOf<T>) => void,
): void {
  const { bus } = useData();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => bus.on(type, (event) => latest.current(event)), [bus, type]);
}
