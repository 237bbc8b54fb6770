import { lazy, type ComponentType } from 'react';
import type { ScreenId } from './navigation.ts';

type ScreenView = ComponentType;

/**
 * Each screen is a chunk of its own, loaded when first shown: the window parses and runs the
 * opening screen's code only (the whole app was one 845 KB script, parsed before anything).
 */
const LOADERS: Record<ScreenId, () => Promise<ScreenView>> = {
  compose: () => import('../screens/compose/ComposeScreen.tsx').then((m) => m.ComposeScreen),
  queue: () => import('../screens/queue/QueueScreen.tsx').then((m) => m.QueueScreen),
  gallery: () => import('../screens/gallery/GalleryScreen.tsx').then((m) => m.GalleryScreen),
  settings: () => import('../screens/settings/SettingsScreen.tsx').then((m) => m.SettingsScreen),
};

const loaded = new Map<ScreenId, ScreenView>();
const loading = new Map<ScreenId, Promise<ScreenView>>();

/** Loads a screen's code (once); the window loads the opening one before its first render. */
export function loadScreen(id: ScreenId): Promise<ScreenView> {
  let promise = loading.get(id);
  if (!promise) {
    promise = LOADERS[id]().then(
      (view) => {
        loaded.set(id, view);
        return view;
      },
      (error: unknown) => {
        loading.delete(id); // a chunk that failed to come is asked for again next time
        throw error;
      },
    );
    loading.set(id, promise);
  }
  return promise;
}

/**
 * A module already loaded is handed over at once (a thenable that answers synchronously), so a
 * screen whose chunk came before its first render does not suspend: no empty frame, and no
 * wait for Suspense's throttled reveal. One component per screen either way, so a screen never
 * remounts when its chunk arrives.
 */
function lazyScreen(id: ScreenId): ScreenView {
  return lazy(() => {
    const view = loaded.get(id);
    if (!view) return loadScreen(id).then((v) => ({ default: v }));
    const now = { then: (done: (m: { default: ScreenView }) => void) => done({ default: view }) };
    return now as unknown as Promise<{ default: ScreenView }>;
  });
}

const VIEWS: Record<ScreenId, ScreenView> = {
  compose: lazyScreen('compose'),
  queue: lazyScreen('queue'),
  gallery: lazyScreen('gallery'),
  settings: lazyScreen('settings'),
};

/** The screen's component (suspends until its chunk is in, unless it is already). */
export function screenView(id: ScreenId): ScreenView {
  return VIEWS[id];
}

/**
 * The other screens' code, loaded once the window has shown its first and is idle (so moving
 * to one is immediate); returns how to call it off.
 */
export function loadScreensWhenIdle(): () => void {
  const loadAll = () => {
    for (const id of Object.keys(LOADERS) as ScreenId[]) loadScreen(id).catch(() => undefined);
  };
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(loadAll, { timeout: 5000 });
    else loadAll();
  }, 2000);
  return () => clearTimeout(timer);
}
