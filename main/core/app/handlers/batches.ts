import { join } from 'node:path';
import type { z } from 'zod';
import type { BatchSource } from '../../../../shared/api/schemas/batches.ts';
import type { Handlers } from '../../../../shared/api/types.ts';
import {
  checkPrompts,
  fileSource,
  importPrompts,
  rowsSource,
  textSource,
  type PromptSource,
} from '../../import/import-batch.ts';
import { sweepUnusedInputs } from '../../edits/input-files.ts';
import type { Batch } from '../../store/rows.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';
import { ModelAccess } from '../model-access.ts';
import { requireConfirmation, spendCheck, totalsView } from '../spend.ts';
import { batchSummary } from '../views.ts';
import { cursorKeys, listScope, notFound, pageFrom } from './paging.ts';

/** A batch's row: its counts and what it spent so far. */
export function summaryOf(ctx: AppContext, batch: Batch) {
  const { store } = ctx;
  return batchSummary(
    batch,
    store.jobs.counts(batch.id),
    store.images.counts(batch.id),
    totalsView(store.spend.totals({ batchId: batch.id }), ctx.settings.read()),
    store.jobs.videoCount(batch.id),
  );
}

export function batchHandlers(ctx: AppContext): Handlers['batches'] {
  const { store } = ctx;
  const access = new ModelAccess();
  const summary = (batch: Batch) => summaryOf(ctx, batch);
  const require = (id: number) => {
    const batch = store.batches.get(id);
    if (!batch) throw notFound('batch', id);
    return batch;
  };
  const sourceOf = (source: z.infer<typeof BatchSource>, name?: string): PromptSource => {
    if (source.kind === 'text') return textSource(source.fileName, source.text);
    if (source.kind === 'path') return fileSource(source.path);
    return rowsSource(
      source.rows,
      name ?? `Batch ${new Date(ctx.now()).toISOString().slice(0, 16).replace('T', ' ')}`,
    );
  };

  return {
    async list({ cursor, limit }) {
      const scope = listScope('batches');
      const [before] = cursorKeys(cursor, ['number'] as const, scope) ?? [Number.MAX_SAFE_INTEGER];
      return pageFrom(store.pages.batches(before, limit + 1), limit, scope, (b) => [b.id], summary);
    },
    async get({ id }) {
      const batch = require(id);
      return {
        ...summary(batch),
        failures: store.pages.failureCounts(id),
        partial: store.jobs.partialSuccesses(id).jobs,
        expiredLinks: store.images.countExpiredLinks(id),
        requests: store.pages.requestsSent(id),
        defaults: (batch.settings.defaults as Record<string, unknown> | undefined) ?? {},
        folder: join(ctx.libraryDir(), batch.dirName),
      };
    },
    async check({ source, defaults }) {
      const check = await checkPrompts(sourceOf(source), {
        catalogue: ctx.catalogue(),
        defaults: defaults ?? {},
      });
      const warnings = await access.videoWarnings(ctx, Object.keys(check.models));
      const spend = spendCheck(check.models, ctx.settings.read(), ctx.catalogue());
      return warnings.length > 0 ? { ...check, spend, warnings } : { ...check, spend };
    },
    async create(input) {
      const { source, name, defaults, paused, position, maxPromptChars, confirmedSpend } = input;
      const catalogue = ctx.catalogue();
      const batch = await importPrompts(store, sourceOf(source, name), {
        catalogue,
        defaults: defaults ?? {},
        ...(name ? { name } : {}),
        ...(paused ? { paused } : {}),
        ...(maxPromptChars !== undefined ? { maxPromptChars } : {}),
        skipBadRows: input.skipBadRows,
        // a held batch spends nothing yet: its resume asks instead
        beforeInsert: (check) => {
          if (paused) return;
          requireConfirmation(check.models, ctx.settings.read(), catalogue, confirmedSpend);
        },
      });
      if (position === 'front') {
        store.batches.setPriority(batch.id, store.pages.batchPriorities().high + 1);
      }
      ctx.hub.reopen([batch.id]);
      ctx.hub.batchesChanged([batch.id]);
      ctx.wake();
      return summary(require(batch.id));
    },
    async rename({ id, name }) {
      require(id);
      store.batches.rename(id, name);
      ctx.hub.batchesChanged([id]);
      return null;
    },
    async move({ id, position }) {
      require(id);
      const { high, low } = store.pages.batchPriorities();
      ctx.controls().setBatchPriority(id, position === 'front' ? high + 1 : low - 1);
      ctx.hub.batchesChanged([id]);
      return null;
    },
    async pause({ id }) {
      require(id);
      ctx.controls().pauseBatch(id, true);
      ctx.hub.batchesChanged([id]);
      return null;
    },
    async resume({ id, confirmedSpend }) {
      const batch = require(id);
      if (batch.paused) {
        const left = store.jobs.workLeftByModel(id);
        requireConfirmation(left, ctx.settings.read(), ctx.catalogue(), confirmedSpend);
      }
      ctx.controls().pauseBatch(id, false);
      ctx.hub.reopen([id]);
      ctx.hub.batchesChanged([id]);
      ctx.wake();
      return null;
    },
    async cancel({ id }) {
      require(id);
      const canceled = ctx.controls().cancelBatch(id);
      ctx.hub.notify();
      return { canceled };
    },
    async delete({ id }) {
      require(id);
      const counts = store.jobs.counts(id);
      if (counts.running > 0 || store.images.counts(id).downloading > 0) {
        throw new AppError(
          'conflict',
          'This batch has requests or downloads under way: cancel it, wait for them to finish, then delete it.',
        );
      }
      store.batches.delete(id);
      ctx.hub.batchesChanged([id], [id]);
      // its edit jobs' pictures and masks, unless another job sends them too
      void sweepUnusedInputs(store, ctx.logger);
      return null;
    },
  };
}
