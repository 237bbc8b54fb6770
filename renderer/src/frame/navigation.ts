import { useSyncExternalStore } from 'react';

/** The screens of the sidebar, in its order. */
export const SCREENS = [
  { id: 'compose', label: 'Compose' },
  { id: 'queue', label: 'Queue' },
  { id: 'gallery', label: 'Gallery' },
  { id: 'settings', label: 'Settings' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];

const DEFAULT_SCREEN: ScreenId = 'compose';

/** The screen named by the address's hash (`#/queue`), so reload and back keep the place. */
export function screenOf(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return SCREENS.some((s) => s.id === id) ? (id as ScreenId) : DEFAULT_SCREEN;
}

export function navigate(screen: ScreenId): void {
  if (screenOf(window.location.hash) !== screen) window.location.hash = `#/${screen}`;
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

export function useScreen(): ScreenId {
  return useSyncExternalStore(subscribe, () => screenOf(window.location.hash));
}
