import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppStore } from './index.ts';
import type { AppState } from './state.ts';

export const StoreContext = createContext<AppStore | null>(null);

/** Reads a part of the app's store; re-renders only when that part changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore needs a <StoreContext value={store}> above it.');
  return useStore(store, selector);
}

/** The store itself, for handlers that read state when they run (no re-render on change). */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStoreApi needs a <StoreContext value={store}> above it.');
  return store;
}
