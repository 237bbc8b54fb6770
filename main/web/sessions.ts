import { createHash, randomBytes } from 'node:crypto';
import type { SessionGrant } from '../../shared/api/session.ts';

/** A code opens nothing after this: long enough for a browser to start, too short to reuse. */
export const CODE_LIFETIME_MS = 60_000;
/** Codes are remembered this long after they expire: a second use (a race) is caught. */
const REMEMBERED_MS = 15 * 60_000;
/** Codes kept at most (unused and recently used): a flood of "New window" stays bounded. */
const MAX_CODES = 256;

export type Session = SessionGrant;

export type Exchange =
  { ok: true; session: Session } | { ok: false; reason: 'unknown' | 'expired' | 'reused' };

interface CodeRecord {
  expiresAt: number;
  /** The session this code opened, once used. */
  sessionId: string | null;
}

/** A fresh random secret: 256 bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are looked up by digest: a lookup's timing tells nothing about the secret itself. */
function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/**
 * The browser host's one-time codes and sessions, in memory only (a restart ends them all).
 * A code is traded once, within CODE_LIFETIME_MS, for a session; a code presented a second
 * time ends the session it opened (RFC 6749 §4.1.2: one of the two holders is not the person,
 * and nothing tells which), and is reported.
 */
export class Sessions {
  private readonly now: () => number;
  private readonly codes = new Map<string, CodeRecord>();
  private readonly byTokenDigest = new Map<string, Session>();
  private readonly byIdMap = new Map<string, Session>();
  private readonly endWatchers = new Map<string, Set<() => void>>();

  constructor(o: { now?: () => number } = {}) {
    this.now = o.now ?? Date.now;
  }

  /** A new one-time code, valid for CODE_LIFETIME_MS. */
  mintCode(): { code: string; expiresAt: number } {
    this.forgetOldCodes();
    while (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value!);
    const code = newSecret();
    const expiresAt = this.now() + CODE_LIFETIME_MS;
    this.codes.set(digest(code), { expiresAt, sessionId: null });
    return { code, expiresAt };
  }

  /** Trades `code` for a new session, once. */
  exchange(code: string): Exchange {
    this.forgetOldCodes();
    const key = digest(code);
    const record = this.codes.get(key);
    if (!record) return { ok: false, reason: 'unknown' };
    if (record.sessionId !== null) {
      this.end(record.sessionId);
      this.codes.delete(key);
      return { ok: false, reason: 'reused' };
    }
    if (this.now() >= record.expiresAt) return { ok: false, reason: 'expired' };
    const session: Session = {
      token: newSecret(),
      sessionId: newSecret().slice(0, 22),
      mediaKey: newSecret(),
    };
    record.sessionId = session.sessionId;
    this.byTokenDigest.set(digest(session.token), session);
    this.byIdMap.set(session.sessionId, session);
    return { ok: true, session };
  }

  /** The session whose bearer token this is, if it is open. */
  byToken(token: string): Session | undefined {
    return this.byTokenDigest.get(digest(token));
  }

  byId(sessionId: string): Session | undefined {
    return this.byIdMap.get(sessionId);
  }

  end(sessionId: string): void {
    const session = this.byIdMap.get(sessionId);
    if (!session) return;
    this.byIdMap.delete(sessionId);
    this.byTokenDigest.delete(digest(session.token));
    const watchers = this.endWatchers.get(sessionId);
    this.endWatchers.delete(sessionId);
    for (const watcher of watchers ?? []) watcher();
  }

  /** Runs `watcher` when the session ends (its open event streams close then). */
  onEnd(sessionId: string, watcher: () => void): () => void {
    if (!this.byIdMap.has(sessionId)) {
      watcher();
      return () => {};
    }
    let watchers = this.endWatchers.get(sessionId);
    if (!watchers) this.endWatchers.set(sessionId, (watchers = new Set()));
    watchers.add(watcher);
    return () => watchers.delete(watcher);
  }

  private forgetOldCodes(): void {
    const now = this.now();
    // kept past their expiry: a late code is told it expired, a used one is caught if reused
    for (const [key, record] of this.codes) {
      if (now >= record.expiresAt + REMEMBERED_MS) this.codes.delete(key);
    }
  }
}
