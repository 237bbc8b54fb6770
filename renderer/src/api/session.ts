import {
  addressWithCode,
  codeInFragment,
  SESSION_CODE_PATH,
  SESSION_PATH,
  SIGNED_OUT_HELP,
  SIGNED_OUT_HOW,
  type FreshCode,
  type SessionGrant,
} from '../../../shared/api/session.ts';

/**
 * The browser host's session in this tab (docs/security.md). It lives in sessionStorage:
 * scoped to this origin (scheme, host and port) and to this tab, kept across a reload, gone
 * when the tab closes; never in a cookie, so no other server on this machine receives it.
 */
const STORAGE_KEY = 'atelier.session';

/** Said when the host no longer knows this tab's session. */
export const SESSION_ENDED =
  'This window’s session has ended: Atelier was restarted, or its address was used a second ' +
  `time. ${SIGNED_OUT_HOW}`;

/** The parts of `window` a session needs (tests pass their own). */
export interface SessionWindow {
  location: { origin: string; hash: string; pathname: string; search: string };
  history: { replaceState(data: unknown, unused: string, url: string): void };
  sessionStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  fetch: typeof fetch;
}

export type SessionStart = { ok: true; grant: SessionGrant } | { ok: false; message: string };

/**
 * Opens this tab's session: the code in the address's fragment (`#code=…`, never sent to any
 * server), traded once for a session, or the session this tab already has (a reload). The
 * code is taken out of the address first, so it is neither kept in history nor tried twice.
 */
export async function startSession(win: SessionWindow): Promise<SessionStart> {
  const { code, rest } = codeInFragment(win.location.hash);
  if (code !== null) {
    win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}${rest}`);
    const traded = await exchange(win, code);
    if (traded.ok) win.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(traded.grant));
    return traded;
  }
  const kept = storedSession(win.sessionStorage);
  return kept ? { ok: true, grant: kept } : { ok: false, message: SIGNED_OUT_HELP };
}

async function exchange(win: SessionWindow, code: string): Promise<SessionStart> {
  try {
    const response = await win.fetch(`${win.location.origin}${SESSION_PATH}`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const body = (await response.json()) as
      { ok: true; value: SessionGrant } | { ok: false; error: { message: string } };
    return body.ok ? { ok: true, grant: body.value } : { ok: false, message: body.error.message };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Atelier's host did not answer (${why}): is it still running?` };
  }
}

/** The session this tab holds, if any. */
export function storedSession(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.sessionStorage,
): SessionGrant | null {
  try {
    const value = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null') as SessionGrant | null;
    const valid =
      typeof value?.token === 'string' &&
      typeof value.sessionId === 'string' &&
      typeof value.mediaKey === 'string';
    return valid ? value : null;
  } catch {
    return null;
  }
}

type EndListener = (message: string) => void;
const endListeners = new Set<EndListener>();

/** Called with a sentence when the host no longer knows this tab's session. */
export function onSessionEnd(listener: EndListener): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/** The host refused the session (it was restarted, or the session was ended): forget it. */
export function endSession(
  message: string,
  storage: Pick<Storage, 'removeItem'> | undefined = globalThis.sessionStorage,
): void {
  storage?.removeItem(STORAGE_KEY);
  for (const listener of endListeners) listener(message);
}

/**
 * Opens the app in a new window with a code of its own (the new window gets its own session):
 * `route` is the screen to open (`/gallery`).
 */
export async function openNewWindow(
  grant: SessionGrant,
  route: string,
  deps: {
    origin: string;
    fetch: typeof fetch;
    open: (url: string, target: string, features: string) => unknown;
  },
): Promise<void> {
  const response = await deps.fetch(`${deps.origin}${SESSION_CODE_PATH}`, {
    method: 'POST',
    credentials: 'omit',
    headers: { authorization: `Bearer ${grant.token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json()) as
    { ok: true; value: FreshCode } | { ok: false; error: { message: string } };
  if (!body.ok) throw new Error(body.error.message);
  // noopener: the new window shares nothing with this one, sessionStorage included
  deps.open(addressWithCode(deps.origin, body.value.code, route), '_blank', 'noopener');
}
