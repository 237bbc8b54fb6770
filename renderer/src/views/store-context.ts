import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';

/**
 * A screen's UI state (what is selected, what is viewed, a draft) as a zustand store given by
 * a context: each window, and each test, has its own.
 */
export function storeContext<S>(name: string) {
  const Context = createContext<StoreApi<S> | null>(null);
  const useStoreApi = (): StoreApi<S> => {
    const store = useContext(Context);
    if (!store) throw new Error(`${name} needs its provider above it (UiStateProvider).`);
    return store;
  };
  /** A part of the state; re-renders only when that part changes. */
  const useSelect = <T>(selector: (state: S) => T): T => useStore(useStoreApi(), selector);
  return { Context, useStoreApi, useSelect };
}
