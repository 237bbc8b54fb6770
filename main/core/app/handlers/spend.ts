import type { Handlers } from '../../../../shared/api/types.ts';
import type { AppContext } from '../app-context.ts';
import { spendSummary } from '../spend.ts';

export function spendHandlers(ctx: AppContext): Handlers['spend'] {
  return {
    async summary(input) {
      return spendSummary(ctx.store, ctx.settings.read(), input, ctx.now());
    },
  };
}
