import { openAppService, type AppService } from '../../core/app/app-service.ts';
import { MemoryKeyProvider } from '../../core/app/key.ts';
import { localClient } from '../../core/app/local-client.ts';
import type { SettingsStore } from '../../core/app/settings-store.ts';
import { GATEWAY_HEADERS_VARIABLE } from '../../core/settings/header-secrets.ts';
import { SettingsFile } from '../../core/settings/settings-file.ts';
import { startDemoGateway } from '../../simulator/demo-gateway.ts';
import { ConfigError } from '../command.ts';
import { openDataFolder } from '../data-folder.ts';
import { packageVersion } from '../package-version.ts';
import { stderrLogger } from '../stderr-logger.ts';
import type { Limits } from './limit-flags.ts';
import type { SpendFlags } from '../spend.ts';
import { requireApiKey } from './gateway-connection.ts';
import { CLI_SEED, settingsPlan, type SettingsFlags, type SettingsPlan } from './settings.ts';

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
        '(where they differ, the newer file wins); the old files are kept with a .migrated suffix.',
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
  /** This command's own cap on what the queue spends (--max-spend). */
  maxSpend?: number | null;
}

/**
 * The application service the app runs, in this process, on the data folder: the CLI
 * composes nothing of its own. The queue waits for `startQueue` (the CLI saves its flags and
 * imports first); the key comes from ATELIER_API_KEY, header values from the flags or
 * ATELIER_GATEWAY_HEADERS, kept in memory only.
 */
async function openCliService(options: CliServiceOptions): Promise<AppService> {
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
      logger: stderrLogger('atelier'),
      holdQueue: true,
      runSpendCap: options.maxSpend ?? null,
      // (this run finishes with the settings it started with; the app hears this one's)
      followSettingsChanges: false,
      ...(options.limits?.engine ? { engine: options.limits.engine } : {}),
      ...(options.limits?.client ? { client: options.limits.client } : {}),
    },
    store,
  );
}

/**
 * One command's run on the data folder's settings and service: the flags planned against the
 * settings (`before` checks what needs the plan, before anything is opened), the key checked,
 * the demo said when no gateway was chosen, then `body` with the service, closed after it.
 */
export async function withCliService<T>(
  options: {
    dataDir: string;
    flags: SettingsFlags;
    limits: Limits;
    json: boolean;
    spend?: SpendFlags;
  },
  body: (service: AppService, plan: SettingsPlan) => Promise<T>,
  before?: (plan: SettingsPlan) => void,
): Promise<T> {
  const { dataDir, json } = options;
  const settings = openCliSettings(dataDir, { json });
  try {
    const plan = settingsPlan(options.flags, settings.read(), process.cwd());
    before?.(plan);
    if (!plan.demo) requireApiKey(process.env);
    // the first line when no gateway was chosen: a person sees why nothing is charged
    if (plan.notice && !json) process.stderr.write(`${plan.notice}\n`);
    const service = await openCliService({
      dataDir,
      settings,
      library: plan.library,
      limits: options.limits,
      maxSpend: options.spend?.maxSpend ?? null,
    });
    try {
      return await body(service, plan);
    } finally {
      await service.close();
    }
  } finally {
    settings.close();
  }
}

/**
 * Saves the flags given to the data folder's settings (the app shows them next time), then
 * checks the gateway they choose can be used now (its key, its headers' values): said before
 * anything is imported or started.
 */
export async function applyFlags(service: AppService, plan: SettingsPlan): Promise<void> {
  if (plan.patch) await localClient(service).settings.update(plan.patch);
  const problem = await service.gatewayProblem();
  if (problem) throw new ConfigError(problem.message);
}
