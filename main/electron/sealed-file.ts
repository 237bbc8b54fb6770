import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { safeStorage } from 'electron';
import { AppError } from '../core/app/app-error.ts';
import type { Logger } from '../core/logger.ts';

/** Whether the keyring can protect a secret here, and why not. */
export interface Storage {
  storable: boolean;
  refusal: string | null;
}

/** Why a secret is not kept, each ending in what to do instead. */
export interface Refusals {
  unavailable: string;
  basicText: string;
  unknown: string;
  /** The stored secret could not be decrypted. */
  undecryptable: string;
}

export interface SealedFileOptions {
  file: string;
  refusals: Refusals;
  platform?: NodeJS.Platform;
  logger?: Logger;
}

/**
 * One secret text, encrypted by the system keyring (Electron's safeStorage: Keychain, DPAPI,
 * libsecret/KWallet) into a 0600 file. Where the keyring cannot protect it (no encryption, or
 * Linux's `basic_text`, which is plain text with a fixed password) it is refused, never
 * written weakly. The key and the extra headers' values are kept this way.
 */
export class SealedFile {
  private readonly options: SealedFileOptions;
  private readonly platform: NodeJS.Platform;

  constructor(options: SealedFileOptions) {
    this.options = options;
    this.platform = options.platform ?? process.platform;
  }

  /** Whether a secret may be stored here, and why not. */
  async storage(): Promise<Storage> {
    const { refusals } = this.options;
    if (!(await safeStorage.isAsyncEncryptionAvailable())) {
      return { storable: false, refusal: refusals.unavailable };
    }
    if (this.platform === 'linux') {
      const backend = safeStorage.getSelectedStorageBackend();
      if (backend === 'basic_text') return { storable: false, refusal: refusals.basicText };
      if (backend === 'unknown') return { storable: false, refusal: refusals.unknown };
    }
    return { storable: true, refusal: null };
  }

  /** The text kept, or null when there is none; `encryption-unavailable` when it cannot be read. */
  async read(): Promise<string | null> {
    let sealed: Buffer;
    try {
      sealed = await readFile(this.options.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let opened: { result: string; shouldReEncrypt: boolean };
    try {
      opened = await safeStorage.decryptStringAsync(sealed);
    } catch {
      throw new AppError('encryption-unavailable', this.options.refusals.undecryptable);
    }
    if (opened.shouldReEncrypt) await this.reEncrypt(opened.result);
    return opened.result;
  }

  /** Keeps `text` encrypted; `encryption-unavailable` where the keyring cannot protect it. */
  async write(text: string): Promise<void> {
    const storage = await this.storage();
    if (!storage.storable) throw new AppError('encryption-unavailable', storage.refusal!);
    await this.writeSealed(await safeStorage.encryptStringAsync(text));
  }

  async remove(): Promise<void> {
    await rm(this.options.file, { force: true });
  }

  /** The keyring rotated its key: seal the text again with the new one (best effort). */
  private async reEncrypt(text: string): Promise<void> {
    try {
      await this.writeSealed(await safeStorage.encryptStringAsync(text));
    } catch (error) {
      this.options.logger?.warn(
        `could not re-encrypt ${this.options.file} with the keyring’s new key`,
        error,
      );
    }
  }

  /** Temp file created 0600, fsynced, renamed over: a crash leaves the old secret or the new. */
  private async writeSealed(sealed: Buffer): Promise<void> {
    const { file } = this.options;
    await mkdir(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await rm(temp, { force: true });
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(sealed);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
