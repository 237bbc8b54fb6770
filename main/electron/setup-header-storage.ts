import { join } from 'node:path';
import { app } from 'electron';
import { z } from 'zod';
import type { Logger } from '../core/logger.ts';
import { GATEWAY_HEADERS_VARIABLE, type HeaderSecrets } from '../core/settings/header-secrets.ts';
import { SealedFile } from './sealed-file.ts';

export const HEADERS_FILE_NAME = 'gateway-headers.bin';

const USE_ENV = `set ${GATEWAY_HEADERS_VARIABLE} in the environment instead`;
export const HEADER_REFUSALS = {
  unavailable: `This system offers Atelier no way to encrypt stored header values, so Atelier will not keep them; ${USE_ENV}.`,
  basicText: `No system keyring (GNOME Keyring, KWallet) is available, so Atelier will not keep header values in plain text; ${USE_ENV}.`,
  unknown: `The system keyring could not be identified yet, so Atelier will not store header values; restart Atelier, or ${USE_ENV}.`,
  undecryptable: `The stored header values could not be decrypted (the system keyring changed?): enter them again in Settings, or ${USE_ENV}.`,
} as const;

const Values = z.record(z.string(), z.string());

/**
 * The desktop's extra header values, by the ids the settings name them with: one JSON object
 * encrypted by the system keyring, like the key (`<userData>/gateway-headers.bin`).
 */
export class SafeStorageHeaderSecrets implements HeaderSecrets {
  readonly source = 'stored' as const;
  private readonly sealed: SealedFile;
  private cached: Map<string, string> | null = null;

  constructor(options: { file: string; platform?: NodeJS.Platform; logger?: Logger }) {
    this.sealed = new SealedFile({ ...options, refusals: HEADER_REFUSALS });
  }

  async get(ids: readonly string[]): Promise<Map<string, string>> {
    let all: Map<string, string>;
    try {
      all = await this.all();
    } catch {
      return new Map(); // (shown as values to enter again; saving new ones replaces the file)
    }
    return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id)!] as const] : [])));
  }

  async update(added: ReadonlyMap<string, string>, keep: ReadonlySet<string>): Promise<void> {
    const before = await this.all().catch(() => new Map<string, string>());
    const next = new Map([...before].filter(([id]) => keep.has(id)));
    for (const [id, value] of added) next.set(id, value);
    const same = next.size === before.size && [...next].every(([id, v]) => before.get(id) === v);
    if (same) return;
    if (next.size === 0) await this.sealed.remove();
    else await this.sealed.write(JSON.stringify(Object.fromEntries(next)));
    this.cached = next;
  }

  private async all(): Promise<Map<string, string>> {
    if (this.cached) return this.cached;
    const text = await this.sealed.read();
    const parsed = text === null ? {} : Values.parse(JSON.parse(text));
    return (this.cached = new Map(Object.entries(parsed)));
  }
}

/** The desktop's header values, their file in the app's user-data folder. */
export function setupHeaderStorage(logger?: Logger): SafeStorageHeaderSecrets {
  return new SafeStorageHeaderSecrets({
    file: join(app.getPath('userData'), HEADERS_FILE_NAME),
    ...(logger ? { logger } : {}),
  });
}
