import type { Handlers } from '../../../../shared/api/types.ts';
import type { AppContext } from '../app-context.ts';

export const DEMO_NOTICE =
  'Demo mode: images come from the built-in simulator, nothing is charged.';

export function appHandlers(ctx: AppContext): Handlers['app'] {
  return {
    async info() {
      const demo = ctx.settings.read().gateway.kind === 'demo';
      return {
        version: ctx.version,
        host: ctx.host,
        demo,
        notice: demo ? DEMO_NOTICE : null,
        gateway: ctx.session.gateway && {
          name: ctx.session.gateway.name,
          baseUrl: ctx.session.gateway.baseUrl,
        },
        capabilities: {
          pathImport: ctx.host !== 'web',
          reveal: Boolean(ctx.actions.reveal),
          openWithViewer: Boolean(ctx.actions.openWithViewer),
          notifications: ctx.host === 'desktop',
        },
        recoveredSettings: ctx.settings.recovered,
      };
    },
  };
}
