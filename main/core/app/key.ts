import type { z } from 'zod';
import type { KeyStatus } from '../../../shared/api/schemas/app.ts';
import { AppError } from './app-error.ts';

export type KeyStatusValue = z.infer<typeof KeyStatus>;
export type KeySource = NonNullable<KeyStatusValue['source']>;

export const API_KEY_VARIABLE = 'ATELIER_API_KEY';

/**
 * Where the gateway keys live: one per gateway profile, and a shared key that serves every
 * profile without one of its own (the one key of earlier versions); `ATELIER_API_KEY` in the
 * environment wins over all. Kept in the system keyring (desktop) or this process's memory
 * (web host, CLI). Only the main process ever holds a key itself; clients learn `status()`:
 * whether one is set and its last four characters.
 */
export interface KeyProvider {
  /** The key for a profile's gateway (null: the shared key); null when none is set. */
  get(profile?: string | null): Promise<string | null>;
  status(profile?: string | null): Promise<KeyStatusValue>;
  /** Checks the shape, then keeps it; `key-invalid` or `encryption-unavailable` otherwise. */
  set(key: string, profile?: string | null): Promise<KeyStatusValue>;
  clear(profile?: string | null): Promise<KeyStatusValue>;
  /**
   * The profiles now in the settings, and those renamed (old name → new): a renamed profile's
   * key follows it, a removed one's is forgotten.
   */
  followProfiles(
    profiles: ReadonlySet<string>,
    renamed: ReadonlyMap<string, string>,
  ): Promise<void>;
  /** Every key this process holds (the environment's included), to scrub from messages. */
  all(): Promise<string[]>;
}

/** Where a key ring keeps its keys: the shared key (profile null) and one per profile. */
export interface KeyStore {
  /** stored: kept across starts (the keyring); memory: until this process ends. */
  readonly source: 'stored' | 'memory';
  /** Whether a key may be kept here, and why not. */
  storage(): Promise<{ storable: boolean; refusal: string | null }>;
  read(profile: string | null): Promise<string | null>;
  /** Keeps `key` (null: forgets it). */
  write(profile: string | null, key: string | null): Promise<void>;
  /** The profiles with a key of their own. */
  profiles(): Promise<string[]>;
}

/** `sk-` then at least 8 printable characters, no spaces: what the gateway issues. */
export function checkKeyShape(key: string): string {
  const trimmed = key.trim();
  if (!trimmed.startsWith('sk-')) {
    throw new AppError('key-invalid', 'The key must start with "sk-", as the gateway issues it.');
  }
  if (!/^sk-[\x21-\x7e]{8,}$/.test(trimmed)) {
    throw new AppError(
      'key-invalid',
      'The key looks cut short or has spaces in it: paste the whole key as the gateway gave it.',
    );
  }
  return trimmed;
}

/** Why a key entered here would be silently outranked (said before a click, and on one). */
export const ENVIRONMENT_KEY_DECIDES =
  `The key comes from ${API_KEY_VARIABLE} in the environment, which wins over one entered ` +
  'here, for every gateway: change or unset it there, then start Atelier again.';

export function keyStatusOf(
  key: string | null,
  source: KeySource | null,
  storage: { storable: boolean; refusal: string | null },
  about: { profile: string | null; shared: boolean; locked: string | null } = {
    profile: null,
    shared: false,
    locked: null,
  },
): KeyStatusValue {
  return {
    set: key !== null,
    last4: key === null ? null : key.slice(-4),
    source: key === null ? null : source,
    storable: storage.storable,
    refusal: storage.refusal,
    ...about,
  };
}

/**
 * A key per profile over a KeyStore: the environment's key first, then the profile's own,
 * then the shared one. Setting or clearing a key while the environment decides is refused
 * (`conflict`), and every status says so beforehand (`locked`).
 */
export class KeyRing implements KeyProvider {
  private readonly store: KeyStore;
  private readonly fromEnv: string | null;

  constructor(store: KeyStore, env: NodeJS.ProcessEnv = process.env) {
    this.store = store;
    const value = env[API_KEY_VARIABLE]?.trim();
    this.fromEnv = value ? value : null;
  }

  async get(profile: string | null = null): Promise<string | null> {
    if (this.fromEnv) return this.fromEnv;
    const own = profile === null ? null : await this.store.read(profile);
    return own ?? (await this.store.read(null));
  }

  async status(profile: string | null = null): Promise<KeyStatusValue> {
    const storage = await this.store.storage();
    const about = { profile, shared: false, locked: this.fromEnv ? ENVIRONMENT_KEY_DECIDES : null };
    if (this.fromEnv) return keyStatusOf(this.fromEnv, 'env', storage, about);
    try {
      const own = profile === null ? null : await this.store.read(profile);
      if (own !== null) return keyStatusOf(own, this.store.source, storage, about);
      const shared = await this.store.read(null);
      return keyStatusOf(shared, this.store.source, storage, {
        ...about,
        shared: profile !== null && shared !== null,
      });
    } catch (error) {
      // shown as "no key" with the reason: the person sets it again
      return keyStatusOf(null, null, { ...storage, refusal: (error as Error).message }, about);
    }
  }

  async set(key: string, profile: string | null = null): Promise<KeyStatusValue> {
    const checked = checkKeyShape(key);
    if (this.fromEnv) throw environmentKeyWins();
    await this.store.write(profile, checked);
    return this.status(profile);
  }

  async clear(profile: string | null = null): Promise<KeyStatusValue> {
    if (this.fromEnv) throw environmentKeyWins();
    await this.store.write(profile, null);
    return this.status(profile);
  }

  async followProfiles(
    profiles: ReadonlySet<string>,
    renamed: ReadonlyMap<string, string>,
  ): Promise<void> {
    for (const [from, to] of renamed) {
      const key = await this.store.read(from).catch(() => null);
      if (key !== null && (await this.store.read(to).catch(() => null)) === null) {
        await this.store.write(to, key);
      }
    }
    for (const name of await this.store.profiles()) {
      if (!profiles.has(name)) await this.store.write(name, null);
    }
  }

  async all(): Promise<string[]> {
    const keys = this.fromEnv ? [this.fromEnv] : [];
    for (const profile of [null, ...(await this.store.profiles().catch(() => []))]) {
      const key = await this.store.read(profile).catch(() => null);
      if (key !== null) keys.push(key);
    }
    return keys;
  }
}

/** The web host's and the CLI's keys: in this process's memory only, never written anywhere. */
export class MemoryKeyStore implements KeyStore {
  readonly source = 'memory' as const;
  private readonly keys = new Map<string | null, string>();

  async storage() {
    return {
      storable: false,
      refusal:
        'The browser host keeps the key in memory until Atelier stops; set ATELIER_API_KEY to keep it across starts.',
    };
  }

  async read(profile: string | null): Promise<string | null> {
    return this.keys.get(profile) ?? null;
  }

  async write(profile: string | null, key: string | null): Promise<void> {
    if (key === null) this.keys.delete(profile);
    else this.keys.set(profile, key);
  }

  async profiles(): Promise<string[]> {
    return [...this.keys.keys()].filter((name): name is string => name !== null);
  }
}

/**
 * The web host's and the CLI's keys: `ATELIER_API_KEY` wins; otherwise keys set through the
 * API are kept in this process's memory only, never written anywhere.
 */
export class MemoryKeyProvider extends KeyRing {
  constructor(env: NodeJS.ProcessEnv = process.env) {
    super(new MemoryKeyStore(), env);
  }
}

/** A key entered while ATELIER_API_KEY decides would be silently outranked: said instead. */
export function environmentKeyWins(): AppError {
  return new AppError('conflict', ENVIRONMENT_KEY_DECIDES);
}
