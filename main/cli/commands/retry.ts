import { ConfigError, intFlag, parseFlags, UsageError, type Command } from '../command.ts';
import { continueQueue } from '../run/continue-queue.ts';
import { SESSION_FLAGS, SESSION_FLAGS_HELP } from '../run/session-flags.ts';

export const retryCommand: Command = {
  name: 'retry',
  summary: 'queue failed prompts or downloads again, then run them like resume',
  help: `Usage: atelier retry [--data DIR] [--failed] [--downloads] [--uncertain] [--batch ID] [options]

Queues work that failed again, then runs the queue like "atelier resume".
  --failed      prompts that failed (refused, retries used up, key or balance problems…)
  --downloads   images generated but not written: fetched again from the stored link or
                data, with no new generation request (an expired link cannot be fetched)
  --uncertain   prompts whose outcome is unknown (504, time-out, interrupted): they may
                already have been generated and charged, so they are only resent when asked
  --batch ID    only this batch (ids are in "atelier status"); default: every batch
With none of --failed, --downloads, --uncertain: --failed and --downloads.

${SESSION_FLAGS_HELP}

Exit codes as for "atelier run".`,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      ...SESSION_FLAGS,
      failed: { type: 'boolean' },
      downloads: { type: 'boolean' },
      uncertain: { type: 'boolean' },
      batch: { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    const chosen = values.failed || values.downloads || values.uncertain;
    const what = {
      failed: chosen ? Boolean(values.failed) : true,
      downloads: chosen ? Boolean(values.downloads) : true,
      uncertain: Boolean(values.uncertain),
    };
    const batchId = intFlag(values.batch, '--batch', 1, Number.MAX_SAFE_INTEGER);
    return continueQueue(values, {
      batchOf(store) {
        if (batchId === undefined) return null;
        const batch = store.batches.get(batchId);
        if (!batch) {
          throw new ConfigError(`There is no batch ${batchId}; "atelier status" lists them.`);
        }
        return batch;
      },
      prepare(engine) {
        const scope = batchId === undefined ? {} : { batchId };
        const queued: string[] = [];
        if (what.failed) queued.push(`${engine.retryFailed(scope)} failed prompt(s)`);
        if (what.uncertain) {
          queued.push(`${engine.retryFailed({ ...scope, anyway: true })} uncertain prompt(s)`);
        }
        if (what.downloads) queued.push(`${engine.retryDownloads(batchId)} download(s)`);
        if (!values.json) process.stderr.write(`Queued again: ${queued.join(', ')}.\n`);
      },
    });
  },
};
