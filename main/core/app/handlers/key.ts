import type { Handlers } from '../../../../shared/api/types.ts';
import { createGatewayClient } from '../../gateway/client.ts';
import type { AppContext } from '../app-context.ts';
import { gatewayTarget } from '../gateway-target.ts';

export function keyHandlers(ctx: AppContext): Handlers['key'] {
  const changed = async () => {
    await ctx.refreshSecrets();
    // a real gateway's queue starts, or stops for want of a key, with the new one; told after,
    // so that a window reading the queue's state and gateway on this event finds them new
    if (ctx.settings.read().gateway.kind === 'remote') await ctx.restartQueue();
    const status = await ctx.keys.status();
    ctx.hub.send({ type: 'key.changed', payload: status });
    return status;
  };
  return {
    async status() {
      return ctx.keys.status();
    },
    async set({ key }) {
      await ctx.keys.set(key);
      return changed();
    },
    async clear() {
      await ctx.keys.clear();
      return changed();
    },
    async test() {
      const target = await gatewayTarget(ctx.settings.read(), ctx.keys, ctx.headers);
      if (!('kind' in target)) {
        return { ok: false, message: target.message, httpStatus: null, models: null };
      }
      if (target.kind === 'demo') {
        return ctx.session.engine
          ? {
              ok: true,
              message: 'The built-in simulator answers: nothing is charged.',
              httpStatus: 200,
              models: null,
            }
          : {
              ok: false,
              message: 'The demo gateway is not running.',
              httpStatus: null,
              models: null,
            };
      }
      const client = createGatewayClient({
        profile: target.profile,
        apiKey: target.apiKey,
        catalogue: ctx.catalogue(),
      });
      try {
        const answer = await client.listModels();
        if (!answer.ok) {
          return { ok: false, message: answer.message, httpStatus: answer.status, models: null };
        }
        const models = answer.value;
        return {
          ok: true,
          message: models
            ? `The gateway accepted the key and lists ${models.length} model(s).`
            : 'The gateway accepted the key (it does not list its models).',
          httpStatus: answer.status,
          models,
        };
      } finally {
        await client.close();
      }
    },
  };
}
