import type { z } from 'zod';
import type { KeyStatus } from '../../../shared/api/schemas/app.ts';
import { AppError } from './app-error.ts';

export type KeyStatusValue = z.infer<typeof KeyStatus>;
export type KeySource = NonNullable<KeyStatusValue['source']>;

export const API_KEY_VARIABLE = 'ATELIER_API_KEY';

/**
 * Where the gateway key lives: the environment, the system keyring (desktop) or this
 * process's memory (web host). Only the main process ever holds the key itself; clients
 * learn `status()`: whether one is set and its last four characters.
 */
export interface KeyProvider {
  /** The key, for the gateway client; null when none is set. */
  get(): Promise<string | null>;
  status(): Promise<KeyStatusValue>;
  /** Checks the shape, then keeps it; `key-invalid` or `encryption-unavailable` otherwise. */
  set(key: string): Promise<KeyStatusValue>;
  clear(): Promise<KeyStatusValue>;
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

export function keyStatusOf(
  key: string | null,
  source: KeySource | null,
  storage: { storable: boolean; refusal: string | null },
): KeyStatusValue {
  return {
    set: key !== null,
    last4: key === null ? null : key.slice(-4),
    source: key === null ? null : source,
    storable: storage.storable,
    refusal: storage.refusal,
  };
}

/**
 * The web host's and the CLI's keys: `ATELIER_API_KEY` wins; otherwise a key set through the
 * API is kept in this process's memory only, never written anywhere.
 */
export class MemoryKeyProvider implements KeyProvider {
  private memory: string | null = null;
  private readonly fromEnv: string | null;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const value = env[API_KEY_VARIABLE]?.trim();
    this.fromEnv = value ? value : null;
  }

  private readonly storage = {
    storable: false,
    refusal:
      'The browser host keeps the key in memory until Atelier stops; set ATELIER_API_KEY to keep it across starts.',
  };

  async get(): Promise<string | null> {
    return this.fromEnv ?? this.memory;
  }

  async status(): Promise<KeyStatusValue> {
    if (this.fromEnv) return keyStatusOf(this.fromEnv, 'env', this.storage);
    return keyStatusOf(this.memory, 'memory', this.storage);
  }

  async set(key: string): Promise<KeyStatusValue> {
    const checked = checkKeyShape(key);
    if (this.fromEnv) throw environmentKeyWins();
    this.memory = checked;
    return this.status();
  }

  async clear(): Promise<KeyStatusValue> {
    if (this.fromEnv) throw environmentKeyWins();
    this.memory = null;
    return this.status();
  }
}

/** A key entered while ATELIER_API_KEY decides would be silently outranked: said instead. */
export function environmentKeyWins(): AppError {
  return new AppError(
    'conflict',
    `The key comes from ${API_KEY_VARIABLE} in the environment, which wins over one entered ` +
      'here: change or unset it there, then start Atelier again.',
  );
}
