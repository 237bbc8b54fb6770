import type { Engine } from '../../core/engine/engine.ts';
import type { Batch } from '../../core/store/rows.ts';
import type { Store } from '../../core/store/store.ts';
import { ConfigError } from '../command.ts';
import { dataFlagSuffix, hasDatabase, resolveDataDir } from '../data-folder.ts';
import { applyFlags, withCliService } from './cli-service.ts';
import { runEngineSession } from './engine-session.ts';
import { limitFlags, type LimitFlagValues } from './limit-flags.ts';
import { sessionSettingsFlags } from './session-flags.ts';
import { spendFlags, type SpendFlagValues } from '../spend.ts';

export interface ContinueFlags extends LimitFlagValues, SpendFlagValues {
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
 * resume and retry: run an existing data folder's queue with its settings (the gateway and
 * library the app or the last run chose); flags override them, and are saved for next time.
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
  const json = values.json ?? false;
  const flags = sessionSettingsFlags(values);
  const spend = spendFlags(values);
  return withCliService(
    { dataDir, flags, limits: limitFlags(values), json, spend },
    async (service, plan) => {
      const batch = options.batchOf?.(service.store) ?? null;
      await applyFlags(service, plan);
      return runEngineSession({
        service,
        json,
        notice: plan.notice,
        batch,
        commandSuffix: dataFlagSuffix(values.data),
        overBudget: spend.overBudget,
        ...(options.prepare
          ? { prepare: (engine: Engine) => options.prepare!(engine, service.store) }
          : {}),
      });
    },
  );
}
