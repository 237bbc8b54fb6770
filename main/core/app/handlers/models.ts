import type { Handlers } from '../../../../shared/api/types.ts';
import { loadUserEntries, saveUserEntries } from '../model-catalogue.ts';
import type { AppContext } from '../app-context.ts';

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
  };
}
