import { retryWork } from '../../core/app/retry-work.ts';
import { ConfigError, intFlag, parseFlags, UsageError, type Command } from '../command.ts';
import { continueQueue } from '../run/continue-queue.ts';
import { SESSION_FLAGS, SESSION_FLAGS_HELP } from '../run/session-flags.ts';

export const retryCommand: Command = {
  name: 'retry',
  summary: 'queue failed prompts, downloads or missing images again, then run like resume',
  help: `Usage: atelier retry [--data DIR] [--failed] [--downloads] [--uncertain] [--partial]
                     [--batch ID] [options]

Queues work that failed again, then runs the queue like "atelier resume".
  --failed      prompts that failed (refused, retries used up, key or balance problems…)
  --downloads   images generated but not written: fetched again from the stored link or
                data, with no new generation request; links that answered "expired" are
                asked again too (some stores answer 404 for a while before a file appears)
  --uncertain   prompts whose outcome is unknown (504, time-out, interrupted): they may
                already have been generated and charged, so they are only resent when asked
  --partial     prompts that returned fewer images than asked: asks for the missing ones
                (a new generation request each; their numbers continue the prompt's)
  --batch ID    only this batch (ids are in "atelier status"); default: every batch
With none of --failed, --downloads, --uncertain, --partial: --failed and --downloads.

${SESSION_FLAGS_HELP}

Exit codes as for "atelier run".`,
  async run(argv) {
    const { values, positionals } = parseFlags(argv, {
      ...SESSION_FLAGS,
      failed: { type: 'boolean' },
      downloads: { type: 'boolean' },
      uncertain: { type: 'boolean' },
      partial: { type: 'boolean' },
      batch: { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}".`);
    const chosen = values.failed || values.downloads || values.uncertain || values.partial;
    const what = {
      failed: chosen ? Boolean(values.failed) : true,
      downloads: chosen ? Boolean(values.downloads) : true,
      uncertain: Boolean(values.uncertain),
      partial: Boolean(values.partial),
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
      prepare(engine, store) {
        const done = retryWork(engine, store, {
          ...what,
          ...(batchId === undefined ? {} : { batchId }),
        });
        const queued: string[] = [];
        if (what.failed) {
          queued.push(`${done.failed} failed prompt(s)`);
          if (done.regenerated.images > 0) {
            queued.push(
              `${done.regenerated.images} image(s) whose link gave no image, as new requests for ` +
                `${done.regenerated.prompts} prompt(s) (they will be charged)`,
            );
          }
        }
        if (what.uncertain) queued.push(`${done.uncertain} uncertain prompt(s)`);
        if (what.partial) {
          queued.push(
            `${done.topUps.prompts} prompt(s) that returned fewer images than asked, for their ` +
              `${done.topUps.images} missing image(s)`,
          );
        }
        if (what.downloads) {
          queued.push(
            `${done.downloads} download(s)` +
              (done.expiredLinks > 0
                ? `, ${done.expiredLinks} of them with a link that had expired (asked again: some ` +
                  'stores answer 404 for a while before a file appears)'
                : ''),
          );
        }
        if (!values.json) process.stderr.write(`Queued again: ${queued.join(', ')}.\n`);
      },
    });
  },
};
