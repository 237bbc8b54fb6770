import { join } from 'node:path';
import type { Store } from '../../core/store/store.ts';
import { parseFlags, UsageError, type Command } from '../command.ts';
import {
  dataFlagSuffix,
  hasDatabase,
  openDataFolderToRead,
  resolveDataDir,
} from '../data-folder.ts';
import { workCounts } from '../../core/app/reports.ts';
import { localDate } from '../../core/store/gallery-runs.ts';
import { moneyOf } from '../../../shared/spend/prices.ts';
import type { SettingsValue } from '../../core/app/settings-store.ts';
import { liveRunner } from '../run/live-runner.ts';
import { openCliSettings } from '../run/cli-service.ts';
import {
  formatStatus,
  pausedView,
  type BatchStatus,
  type StatusView,
} from '../status/status-view.ts';

export const statusCommand: Command = {
  name: 'status',
  summary: "show the data folder's batches, their counts and the queue's pause reason",
  help: `Usage: atelier status [--data DIR] [--json]

Lists each batch of the data folder (newest first) with its prompts by state, its images on
disk, failed downloads (and which of them failed on an expired link), the images
prompts did not return (fewer than asked), where its images are, and whether the queue is
paused and why.
  --data DIR   the data folder (default ./.atelier-data)
  --json       print the same as one JSON object`,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      data: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    const dataDir = resolveDataDir(values.data);
    // the same settings the app and the other commands use, read only: nothing is migrated here
    const file = openCliSettings(dataDir, { json: values.json ?? false, readOnly: true });
    const saved = file.saved ? file.read() : null;
    file.close();
    const view = hasDatabase(dataDir) ? readStatus(dataDir, saved) : emptyStatus(dataDir, saved);
    process.stdout.write(
      values.json
        ? `${JSON.stringify(view, null, 2)}\n`
        : `${formatStatus(view, dataFlagSuffix(values.data))}\n`,
    );
    return 0;
  },
};

function emptyStatus(dataDir: string, saved: SettingsValue | null): StatusView {
  return {
    dataDir,
    library: saved?.library ?? null,
    gateway: gatewayOf(saved),
    paused: null,
    runner: null,
    batches: [],
  };
}

function readStatus(dataDir: string, saved: SettingsValue | null): StatusView {
  const { store, readOnly } = openDataFolderToRead(dataDir);
  if (readOnly) {
    process.stderr.write(
      `Note: the data folder ${dataDir} is read-only: shown as it is; nothing can run there ` +
        'until it is writable again.\n',
    );
  }
  try {
    return {
      ...emptyStatus(dataDir, saved),
      paused: pausedView(store.queue.get()),
      runner: runnerOf(store),
      spend: spendToday(store, saved),
      batches: store.batches.list().map((batch): BatchStatus => {
        const counts = workCounts(store, batch.id);
        return {
          id: batch.id,
          name: batch.name,
          source: batch.source,
          createdAt: new Date(batch.createdAt).toISOString(),
          folder: saved?.library ? join(saved.library, batch.dirName) : null,
          paused: batch.paused ? { reason: batch.pauseReason ?? 'Paused.' } : null,
          ...counts,
          spent: spentOn(store, batch.id),
          jobs: {
            ...counts.jobs,
            total: Object.values(counts.jobs).reduce((sum, n) => sum + n, 0),
          },
        };
      }),
    };
  } finally {
    store.close();
  }
}

function spendToday(store: Store, saved: SettingsValue | null): StatusView['spend'] {
  const day = localDate(Date.now());
  const today = store.spend.totals({ fromDay: day, toDay: day });
  const currency = saved?.currency ?? null;
  return {
    day,
    units: today.units,
    uncertainUnits: today.uncertainUnits,
    money: moneyOf(today.units, currency),
    perDay: saved?.budget.perDay ?? null,
    perBatch: saved?.budget.perBatch ?? null,
  };
}

function spentOn(store: Store, batchId: number): BatchStatus['spent'] {
  const { units, uncertainUnits } = store.spend.totals({ batchId });
  return { units, uncertainUnits };
}

function runnerOf(store: Store): StatusView['runner'] {
  const runner = liveRunner(store);
  return runner && { pid: runner.pid, host: runner.host };
}

function gatewayOf(saved: SettingsValue | null): string | null {
  if (!saved) return null;
  const { gateway } = saved;
  if (gateway.kind === 'demo') return 'the embedded demo gateway (--demo)';
  const profile = saved.profiles.find((p) => p.name === gateway.profile);
  return profile ? profile.baseUrl : `"${gateway.profile}" (no such gateway profile)`;
}
