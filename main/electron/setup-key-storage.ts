import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { app, safeStorage } from 'electron';
import { AppError } from '../core/app/app-error.ts';
import {
  API_KEY_VARIABLE,
  environmentKeyWins,
  checkKeyShape,
  keyStatusOf,
  type KeyProvider,
  type KeyStatusValue,
} from '../core/app/key.ts';
import type { Logger } from '../core/logger.ts';

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

interface Storage {
  storable: boolean;
  refusal: string | null;
}

/**
 * The desktop's key: `ATELIER_API_KEY` wins; otherwise the key set in Settings, encrypted by
 * the system keyring (Electron's safeStorage: Keychain, DPAPI, libsecret/KWallet) into a 0600
 * file. Where the keyring cannot protect it (no encryption, or Linux's `basic_text`, which
 * is plain text with a fixed password) the key is refused, never written weakly.
 */
export class SafeStorageKeyProvider implements KeyProvider {
  private readonly file: string;
  private readonly fromEnv: string | null;
  private readonly platform: NodeJS.Platform;
  private readonly logger: Logger | undefined;
  /** The decrypted stored key once read (undefined: not read yet). */
  private cached: string | null | undefined;

  constructor(options: SafeStorageKeyOptions) {
    this.file = options.file;
    const value = (options.env ?? process.env)[API_KEY_VARIABLE]?.trim();
    this.fromEnv = value ? value : null;
    this.platform = options.platform ?? process.platform;
    this.logger = options.logger;
  }

  async get(): Promise<string | null> {
    return this.fromEnv ?? (await this.stored());
  }

  async status(): Promise<KeyStatusValue> {
    const storage = await this.storage();
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
    const storage = await this.storage();
    if (!storage.storable) throw new AppError('encryption-unavailable', storage.refusal!);
    await this.write(await safeStorage.encryptStringAsync(checked));
    this.cached = checked;
    return this.status();
  }

  async clear(): Promise<KeyStatusValue> {
    if (this.fromEnv) throw environmentKeyWins();
    await rm(this.file, { force: true });
    this.cached = null;
    return this.status();
  }

  /** Whether a key may be stored here, and why not. */
  private async storage(): Promise<Storage> {
    if (!(await safeStorage.isAsyncEncryptionAvailable())) {
      return { storable: false, refusal: REFUSALS.unavailable };
    }
    if (this.platform === 'linux') {
      const backend = safeStorage.getSelectedStorageBackend();
      if (backend === 'basic_text') return { storable: false, refusal: REFUSALS.basicText };
      if (backend === 'unknown') return { storable: false, refusal: REFUSALS.unknown };
    }
    return { storable: true, refusal: null };
  }

  private async stored(): Promise<string | null> {
    if (this.cached !== undefined) return this.cached;
    let sealed: Buffer;
    try {
      sealed = await readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.cached = null);
      throw error;
    }
    let opened: { result: string; shouldReEncrypt: boolean };
    try {
      opened = await safeStorage.decryptStringAsync(sealed);
    } catch {
      throw new AppError(
        'encryption-unavailable',
        `The stored key could not be decrypted (the system keyring changed?): set the key again, or ${USE_ENV}.`,
      );
    }
    if (opened.shouldReEncrypt) await this.reEncrypt(opened.result);
    return (this.cached = opened.result);
  }

  /** The keyring rotated its key: seal the key again with the new one (best effort). */
  private async reEncrypt(key: string): Promise<void> {
    try {
      await this.write(await safeStorage.encryptStringAsync(key));
    } catch (error) {
      this.logger?.warn('could not re-encrypt the stored key with the keyring’s new key', error);
    }
  }

  /** Temp file created 0600, fsynced, renamed over: a crash leaves the old key or the new. */
  private async write(sealed: Buffer): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await rm(temp, { force: true });
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(sealed);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

/** The desktop's key provider, its file in the app's user-data folder. */
export function setupKeyStorage(logger?: Logger): SafeStorageKeyProvider {
  return new SafeStorageKeyProvider({ file: join(app.getPath('userData'), KEY_FILE_NAME), logger });
}
