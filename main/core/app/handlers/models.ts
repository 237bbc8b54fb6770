import type { Handlers } from '../../../../shared/api/types.ts';
import { loadUserEntries, saveUserEntries } from '../model-catalogue.ts';
import type { AppContext } from '../app-context.ts';
import { AppError } from '../app-error.ts';
import { entryOfForm } from '../model-form.ts';

export function modelHandlers(ctx: AppContext): Handlers['models'] {
  const catalogue = () => {
    const user = new Set(loadUserEntries(ctx.dataDir).map((entry) => entry.id));
    return {
      entries: ctx
        .catalogue()
        .entries()
        .map((entry) => ({
          entry,
          origin: user.has(entry.id) ? ('user' as const) : ('built-in' as const),
        })),
    };
  };
  return {
    async catalogue() {
      return catalogue();
    },
    async saveUserEntries({ entries }) {
      saveUserEntries(ctx.dataDir, entries);
      ctx.reloadCatalogue();
      await ctx.restartQueue();
      // the person's entries are settings too: every window's catalogue follows
      ctx.hub.send({ type: 'settings.changed', payload: {} });
      return catalogue();
    },
    async addEntries({ entries, replace }) {
      const added = entries.map(entryOfForm);
      const ids = new Set(added.map((entry) => entry.id));
      const own = loadUserEntries(ctx.dataDir);
      const taken = own.filter((entry) => ids.has(entry.id)).map((entry) => entry.id);
      if (taken.length > 0 && !replace) {
        throw new AppError(
          'conflict',
          `You have entries for ${taken.join(', ')} already: replace them, or leave them out.`,
          { ids: taken },
        );
      }
      // (checked whole, as saveUserEntries checks the file: a bad field names its entry)
      saveUserEntries(ctx.dataDir, [...own.filter((entry) => !ids.has(entry.id)), ...added]);
      ctx.reloadCatalogue();
      await ctx.restartQueue();
      return catalogue();
    },
  };
}
