import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openAppService, type AppService } from '../../core/app/app-service.ts';
import { MemoryKeyProvider } from '../../core/app/key.ts';
import { localClient } from '../../core/app/local-client.ts';
import type { SettingsStore } from '../../core/app/settings-store.ts';
import { consoleLogger } from '../../core/logger.ts';
import { GATEWAY_HEADERS_VARIABLE } from '../../core/settings/header-secrets.ts';
import { SettingsFile } from '../../core/settings/settings-file.ts';
import { startDemoGateway } from '../../simulator/demo-gateway.ts';
import { ConfigError } from '../command.ts';
import { openDataFolder } from '../data-folder.ts';
import type { Limits } from './limit-flags.ts';
import { CLI_SEED, type Patch } from './settings.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Atelier's version, as package.json says it. */
export function packageVersion(): string {
  const json = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return json.version;
}

/**
 * The data folder's settings, the same file the app and `atelier ui` use: older files merged
 * into it (said on stderr), a damaged one set aside (said too). Nothing is written unless
 * there was something to migrate.
 */
export function openCliSettings(
  dataDir: string,
  options: { json?: boolean; readOnly?: boolean } = {},
): SettingsFile {
  const settings = new SettingsFile({
    dataDir,
    seed: CLI_SEED,
    ...(options.readOnly ? { readOnly: true } : {}),
  });
  if (!options.json) {
    for (const line of settingsNotes(settings)) process.stderr.write(`${line}\n`);
  }
  return settings;
}

/** What a person should know about how the settings were opened. */
export function settingsNotes(settings: SettingsStore): string[] {
  const lines: string[] = [];
  if (settings.recovered) {
    lines.push(
      `${settings.recovered.reason} It was set aside as ${settings.recovered.backupPath}.`,
    );
  }
  const migrated = settings.migrated;
  if (migrated) {
    lines.push(
      `Settings from ${migrated.from.join(', ')} are now in the data folder’s settings.json ` +
        '(the newer file’s win); the old files are kept with a .migrated suffix.',
    );
    if (migrated.headers.length > 0) {
      lines.push(
        `The extra headers ${migrated.headers.join(', ')} were saved in plain text; they are ` +
          'credentials, kept in memory now: give --header again next time, or set ' +
          `${GATEWAY_HEADERS_VARIABLE}. The .migrated files still hold them: delete those once ` +
          'you have.',
      );
    }
  }
  return lines;
}

export interface CliServiceOptions {
  dataDir: string;
  settings: SettingsFile;
  /** The library when the settings name none yet (`--out`, or ./atelier-library). */
  library: string;
  limits?: Limits;
}

/**
 * The application service the app runs, in this process, on the data folder: the CLI
 * composes nothing of its own. The queue waits for `startQueue` (the CLI saves its flags and
 * imports first); the key comes from ATELIER_API_KEY, header values from the flags or
 * ATELIER_GATEWAY_HEADERS, kept in memory only.
 */
export async function openCliService(options: CliServiceOptions): Promise<AppService> {
  const store = openDataFolder(options.dataDir);
  return openAppService(
    {
      dataDir: options.dataDir,
      defaultLibraryDir: options.library,
      host: 'cli',
      version: packageVersion(),
      settings: options.settings,
      keys: new MemoryKeyProvider(process.env),
      startDemoGateway,
      logger: consoleLogger,
      holdQueue: true,
      // (this run finishes with the settings it started with; the app hears this one's)
      followSettingsChanges: false,
      ...(options.limits?.engine ? { engine: options.limits.engine } : {}),
      ...(options.limits?.client ? { client: options.limits.client } : {}),
    },
    store,
  );
}

/** Saves the flags given to the data folder's settings (the app shows them next time). */
export async function saveFlags(service: AppService, patch: Patch | null): Promise<void> {
  if (patch) await localClient(service).settings.update(patch);
}

/** Why the gateway the settings choose cannot be used now, said before anything is imported. */
export async function requireUsableGateway(service: AppService): Promise<void> {
  const problem = await service.gatewayProblem();
  if (problem) throw new ConfigError(problem.message);
}
