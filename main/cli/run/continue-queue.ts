import { loadCatalogue } from '../../core/app/model-catalogue.ts';
import type { Engine } from '../../core/engine/engine.ts';
import type { Batch } from '../../core/store/rows.ts';
import type { Store } from '../../core/store/store.ts';
import { ConfigError } from '../command.ts';
import { dataFlagSuffix, hasDatabase, openDataFolder, resolveDataDir } from '../data-folder.ts';
import { runEngineSession } from './engine-session.ts';
import { remoteProfile, requireApiKey } from './gateway-connection.ts';
import { loadSettings, saveSettings } from './saved-settings.ts';
import { limitFlags, type LimitFlagValues } from './limit-flags.ts';
import { sessionSettingsFlags } from './session-flags.ts';
import { resolveSettings } from './settings.ts';

export interface ContinueFlags extends LimitFlagValues {
  data?: string;
  out?: string;
  json?: boolean;
  demo?: boolean;
  gateway?: string;
  header?: string[];
  concurrency?: string;
  rpm?: string;
}

export interface ContinueOptions {
  /** The batch the summary covers; by default the whole data folder. */
  batchOf?: (store: Store) => Batch | null;
  /** Queue what this command adds once the engine holds the queue (retry). */
  prepare?: (engine: Engine, store: Store) => void;
}

/**
 * resume and retry: run an existing data folder's queue with its saved gateway and library
 * (flags override them, and are saved for next time).
 */
export async function continueQueue(
  values: ContinueFlags,
  options: ContinueOptions = {},
): Promise<number> {
  const dataDir = resolveDataDir(values.data);
  if (!hasDatabase(dataDir)) {
    throw new ConfigError(
      `There is no queue in ${dataDir} yet. Start one with "atelier run prompts.csv --demo" ` +
        '(or --gateway URL), or point at another data folder with --data DIR.',
    );
  }
  const limits = limitFlags(values);
  const settings = resolveSettings(
    sessionSettingsFlags(values),
    loadSettings(dataDir),
    process.cwd(),
  );
  if (settings.gateway.kind === 'remote') remoteProfile(settings.gateway);
  const apiKey = requireApiKey(settings.gateway, process.env);
  const store = openDataFolder(dataDir);
  try {
    const batch = options.batchOf?.(store) ?? null;
    saveSettings(dataDir, settings);
    return await runEngineSession({
      store,
      settings,
      apiKey,
      catalogue: loadCatalogue(dataDir),
      json: values.json ?? false,
      limits,
      batch,
      commandSuffix: dataFlagSuffix(values.data),
      ...(options.prepare ? { prepare: (engine) => options.prepare!(engine, store) } : {}),
    });
  } finally {
    store.close();
  }
}
