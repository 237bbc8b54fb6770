import { describe, expect, it, vi } from 'vitest';
import {
  startSession,
  storedSession,
  type SessionWindow,
} from '../../../renderer/src/api/session.ts';
import { SIGNED_OUT_HELP } from '../../../shared/api/session.ts';

const grant = { token: 't'.repeat(43), sessionId: 's1', mediaKey: 'k'.repeat(43) };

/** A tab: its address, history, sessionStorage, and the host's answer to the exchange. */
function tab(hash: string, answer?: unknown, kept: Record<string, string> = {}) {
  const store = new Map(Object.entries(kept));
  const replaced: string[] = [];
  const fetch = vi.fn(async () => new Response(JSON.stringify(answer)));
  const win: SessionWindow = {
    location: { origin: 'http://127.0.0.1:5', hash, pathname: '/', search: '' },
    history: { replaceState: (_d, _u, url) => void replaced.push(url) },
    sessionStorage: {
      getItem: (k) => store.get(k) ?? null,
      setItem: (k, v) => void store.set(k, v),
      removeItem: (k) => void store.delete(k),
    },
    fetch: fetch as unknown as typeof globalThis.fetch,
  };
  return { win, store, replaced, fetch };
}

describe('a tab’s session', () => {
  it('trades the code in the fragment, takes it out of the address, and keeps the session', async () => {
    const t = tab('#/gallery?code=abc', { ok: true, value: grant });
    expect(await startSession(t.win)).toEqual({ ok: true, grant });
    // out of the address before the exchange: never in history, never tried twice
    expect(t.replaced).toEqual(['/#/gallery']);
    expect(t.fetch).toHaveBeenCalledWith('http://127.0.0.1:5/api/session', {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: '{"code":"abc"}',
    });
    expect(storedSession(t.win.sessionStorage)).toEqual(grant);
  });

  it('keeps the session it has across a reload', async () => {
    const t = tab('#/queue', undefined, { 'atelier.session': JSON.stringify(grant) });
    expect(await startSession(t.win)).toEqual({ ok: true, grant });
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('says how to open Atelier when it has neither, or the code is refused', async () => {
    expect(await startSession(tab('').win)).toEqual({ ok: false, message: SIGNED_OUT_HELP });
    const error = { code: 'unauthorized', message: 'This address has expired.' };
    const refused = tab('#code=old', { ok: false, error });
    expect(await startSession(refused.win)).toEqual({ ok: false, message: error.message });
    expect(refused.store.size).toBe(0);
    const garbled = tab('', undefined, { 'atelier.session': '{"token": 1}' });
    expect((await startSession(garbled.win)).ok).toBe(false);
  });
});
