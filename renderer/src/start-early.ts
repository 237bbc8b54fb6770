import { startSession, type SessionStart } from './api/session.ts';
import { screenOf } from './frame/navigation.ts';
import { loadScreen } from './frame/screen-views.ts';

/**
 * What the window asks for as its script starts (main.tsx imports this module first), so the
 * round trips run while the rest of the bundle is evaluated instead of after it: this tab's
 * session (null on the desktop, whose preload is the API), and the opening screen's chunk.
 */
export const sessionStarted: Promise<SessionStart> | null = window.atelier
  ? null
  : startSession(window);

/** The screen the window opens on (the session's code is out of the address by now). */
export const openingScreen = screenOf(window.location.hash);

/** Its code; a chunk that fails to come suspends the screen, which asks for it again. */
export const openingLoaded = loadScreen(openingScreen).catch(() => undefined);
