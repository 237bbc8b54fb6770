import { useEffect } from 'react';
import type { Settings } from '../data/types.ts';

export type ThemeChoice = Settings['theme'];

/** The theme's choices, in the status bar's switch and in Settings alike. */
export const THEME_CHOICES: ReadonlyArray<{ value: ThemeChoice; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * The page's color scheme: the system's, or the one the person chose. CSS reads it through
 * `color-scheme` and `light-dark()`, so there is no flash before this runs (it follows the
 * system until then).
 */
export function applyTheme(
  choice: ThemeChoice,
  root: HTMLElement = document.documentElement,
): void {
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function useTheme(choice: ThemeChoice | undefined): void {
  useEffect(() => applyTheme(choice ?? 'system'), [choice]);
}
