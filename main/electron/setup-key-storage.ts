import { dirname, join } from 'node:path';
import { app } from 'electron';
import { z } from 'zod';
import { API_KEY_VARIABLE, KeyRing, type KeyStore } from '../core/app/key.ts';
import type { Logger } from '../core/logger.ts';
import { SealedFile } from './sealed-file.ts';

export const KEY_FILE_NAME = 'api-key.bin';
/** The keys of single gateway profiles, beside the shared one. */
export const PROFILE_KEYS_FILE_NAME = 'gateway-keys.bin';

const USE_ENV = `set ${API_KEY_VARIABLE} in the environment instead`;
export const REFUSALS = {
  unavailable: `This system offers Atelier no way to encrypt a stored key, so Atelier will not keep it; ${USE_ENV}.`,
  basicText: `No system keyring (GNOME Keyring, KWallet) is available, so Atelier will not keep the key in plain text; ${USE_ENV}.`,
  unknown: `The system keyring could not be identified yet, so Atelier will not store the key; restart Atelier, or ${USE_ENV}.`,
} as const;

export interface SafeStorageKeyOptions {
  /** The shared key's file: `<userData>/api-key.bin` (the profiles' keys are beside it). */
  file: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  logger?: Logger;
}

const ProfileKeys = z.record(z.string(), z.string());

/**
 * The desktop's keys, each encrypted by the system keyring into a 0600 file (see SealedFile),
 * or refused where the keyring cannot protect them: the shared key alone in `api-key.bin` (as
 * earlier versions kept their one key), the profiles' own keys as one JSON object in
 * `gateway-keys.bin`.
 */
class SealedKeyStore implements KeyStore {
  readonly source = 'stored' as const;
  private readonly shared: SealedFile;
  private readonly byProfile: SealedFile;
  /** What was read (undefined: not yet), so the keyring is asked once. */
  private sharedKey: string | null | undefined;
  private profileKeys: Map<string, string> | undefined;

  constructor(options: SafeStorageKeyOptions) {
    const sealed = (file: string) =>
      new SealedFile({
        file,
        refusals: {
          ...REFUSALS,
          undecryptable: `The stored key could not be decrypted (the system keyring changed?): set the key again, or ${USE_ENV}.`,
        },
        ...(options.platform ? { platform: options.platform } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
    this.shared = sealed(options.file);
    this.byProfile = sealed(join(dirname(options.file), PROFILE_KEYS_FILE_NAME));
  }

  storage() {
    return this.shared.storage();
  }

  async read(profile: string | null): Promise<string | null> {
    if (profile === null) {
      if (this.sharedKey === undefined) this.sharedKey = await this.shared.read();
      return this.sharedKey;
    }
    return (await this.profileMap()).get(profile) ?? null;
  }

  async write(profile: string | null, key: string | null): Promise<void> {
    if (profile === null) {
      if (key === null) await this.shared.remove();
      else await this.shared.write(key);
      this.sharedKey = key;
      return;
    }
    const next = new Map(await this.profileMap().catch(() => new Map<string, string>()));
    if (key === null) next.delete(profile);
    else next.set(profile, key);
    if (next.size === 0) await this.byProfile.remove();
    else await this.byProfile.write(JSON.stringify(Object.fromEntries(next)));
    this.profileKeys = next;
  }

  async profiles(): Promise<string[]> {
    return [...(await this.profileMap()).keys()];
  }

  private async profileMap(): Promise<Map<string, string>> {
    if (this.profileKeys) return this.profileKeys;
    const text = await this.byProfile.read();
    const parsed = text === null ? {} : ProfileKeys.parse(JSON.parse(text));
    return (this.profileKeys = new Map(Object.entries(parsed)));
  }
}

/**
 * The desktop's keys: `ATELIER_API_KEY` wins; otherwise the keys set in Settings (one per
 * gateway, and a shared one), kept by the system keyring (see SealedKeyStore).
 */
export class SafeStorageKeyProvider extends KeyRing {
  constructor(options: SafeStorageKeyOptions) {
    super(new SealedKeyStore(options), options.env ?? process.env);
  }
}

/** The desktop's key provider, its files in the app's user-data folder. */
export function setupKeyStorage(logger?: Logger): SafeStorageKeyProvider {
  return new SafeStorageKeyProvider({ file: join(app.getPath('userData'), KEY_FILE_NAME), logger });
}
