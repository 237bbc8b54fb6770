import { join } from 'node:path';
import { app } from 'electron';
import {
  API_KEY_VARIABLE,
  environmentKeyWins,
  checkKeyShape,
  keyStatusOf,
  type KeyProvider,
  type KeyStatusValue,
} from '../core/app/key.ts';
import type { Logger } from '../core/logger.ts';
import { SealedFile } from './sealed-file.ts';

export const KEY_FILE_NAME = 'api-key.bin';

const USE_ENV = `set ${API_KEY_VARIABLE} in the environment instead`;
export const REFUSALS = {
  unavailable: `This system offers Atelier no way to encrypt a stored key, so Atelier will not keep it; ${USE_ENV}.`,
  basicText: `No system keyring (GNOME Keyring, KWallet) is available, so Atelier will not keep the key in plain text; ${USE_ENV}.`,
  unknown: `The system keyring could not be identified yet, so Atelier will not store the key; restart Atelier, or ${USE_ENV}.`,
} as const;

export interface SafeStorageKeyOptions {
  /** The encrypted key's file: `<userData>/api-key.bin`. */
  file: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  logger?: Logger;
}

/**
 * The desktop's key: `ATELIER_API_KEY` wins; otherwise the key set in Settings, encrypted by
 * the system keyring into a 0600 file (see SealedFile), or refused where the keyring cannot
 * protect it.
 */
export class SafeStorageKeyProvider implements KeyProvider {
  private readonly sealed: SealedFile;
  private readonly fromEnv: string | null;
  /** The decrypted stored key once read (undefined: not read yet). */
  private cached: string | null | undefined;

  constructor(options: SafeStorageKeyOptions) {
    this.sealed = new SealedFile({
      file: options.file,
      refusals: {
        ...REFUSALS,
        undecryptable: `The stored key could not be decrypted (the system keyring changed?): set the key again, or ${USE_ENV}.`,
      },
      ...(options.platform ? { platform: options.platform } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const value = (options.env ?? process.env)[API_KEY_VARIABLE]?.trim();
    this.fromEnv = value ? value : null;
  }

  async get(): Promise<string | null> {
    return this.fromEnv ?? (await this.stored());
  }

  async status(): Promise<KeyStatusValue> {
    const storage = await this.sealed.storage();
    if (this.fromEnv) return keyStatusOf(this.fromEnv, 'env', storage);
    let key: string | null;
    try {
      key = await this.stored();
    } catch (error) {
      // shown as "no key" with the reason: the person sets it again
      return keyStatusOf(null, null, { ...storage, refusal: (error as Error).message });
    }
    return keyStatusOf(key, 'stored', storage);
  }

  async set(key: string): Promise<KeyStatusValue> {
    const checked = checkKeyShape(key);
    if (this.fromEnv) throw environmentKeyWins();
    await this.sealed.write(checked);
    this.cached = checked;
    return this.status();
  }

  async clear(): Promise<KeyStatusValue> {
    if (this.fromEnv) throw environmentKeyWins();
    await this.sealed.remove();
    this.cached = null;
    return this.status();
  }

  private async stored(): Promise<string | null> {
    if (this.cached !== undefined) return this.cached;
    return (this.cached = await this.sealed.read());
  }
}

/** The desktop's key provider, its file in the app's user-data folder. */
export function setupKeyStorage(logger?: Logger): SafeStorageKeyProvider {
  return new SafeStorageKeyProvider({ file: join(app.getPath('userData'), KEY_FILE_NAME), logger });
}
