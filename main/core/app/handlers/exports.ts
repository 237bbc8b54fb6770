import type { Handlers } from '../../../../shared/api/types.ts';
import { exportDestination } from '../../export/export-destination.ts';
import type { ExportRunner } from '../../export/export-runner.ts';
import { exportRecords, writtenOfFilter, writtenOfIds } from '../../export/export-source.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';
import { toGalleryFilter } from './images.ts';

export function exportHandlers(ctx: AppContext, runner: ExportRunner): Handlers['exports'] {
  const unknown = (id: string) =>
    new AppError('not-found', `There is no export ${id} (this process did not start it).`);
  return {
    async start({ source }) {
      const choose = ctx.actions.chooseExportPath;
      const destination = await exportDestination({
        choose: choose && ((name) => choose.call(ctx.actions, name)),
        libraryDir: ctx.libraryDir(),
        now: ctx.now(),
        busy: (p) => runner.writes(p),
        isBatchFolder: (key) => ctx.store.batches.ownsFolder(key),
      });
      if (destination === null) return { id: null, path: null, total: 0 };
      const { path, replaces } = destination;
      let ids: number[];
      try {
        // read after the dialog: what is written while the person chose a name goes in too
        ids =
          'ids' in source
            ? writtenOfIds(ctx.store, source.ids)
            : writtenOfFilter(ctx.store, toGalleryFilter(source.query));
      } catch (error) {
        await replaces?.close();
        throw error;
      }
      const records = exportRecords(ctx.store, ids, () => ctx.libraryDir());
      const id = runner.start({ path, replaces, total: ids.length, records });
      return { id, path, total: ids.length };
    },
    async get({ id }) {
      const progress = runner.get(id);
      if (!progress) throw unknown(id);
      return progress;
    },
    async cancel({ id }) {
      if (!(await runner.cancel(id))) throw unknown(id);
      return null;
    },
  };
}
