import type { Handlers } from '../../../../shared/api/types.ts';
import { createGatewayClient } from '../../gateway/client.ts';
import type { AppContext } from '../app-context.ts';
import { AppError } from '../app-error.ts';
import { gatewayTarget } from '../gateway-target.ts';
import { profileOf } from '../model-access.ts';

export function keyHandlers(ctx: AppContext): Handlers['key'] {
  /** A profile's name that the settings have (null: the shared key), else `not-found`. */
  const known = (profile: string | undefined): string | null => {
    if (profile === undefined) return null;
    if (!ctx.settings.read().profiles.some((p) => p.name === profile)) {
      throw new AppError('not-found', `There is no gateway named "${profile}" in the settings.`);
    }
    return profile;
  };
  const changed = async (profile: string | null) => {
    await ctx.refreshSecrets();
    // a real gateway's queue starts, or stops for want of a key, with the new one (the shared key
    // serves the chosen gateway when it has none of its own); told after, so that a window
    // reading the queue's state and gateway on this event finds them new
    const active = profileOf(ctx.settings.read());
    if (active !== null && (profile === null || profile === active)) await ctx.restartQueue();
    const status = await ctx.keys.status(profile);
    ctx.hub.send({ type: 'key.changed', payload: status });
    return status;
  };
  return {
    async status({ profile }) {
      return ctx.keys.status(known(profile));
    },
    async set({ key, profile }) {
      const name = known(profile);
      await ctx.keys.set(key, name);
      return changed(name);
    },
    async clear({ profile }) {
      const name = known(profile);
      await ctx.keys.clear(name);
      return changed(name);
    },
    async test({ profile }) {
      const settings = ctx.settings.read();
      const chosen =
        profile === undefined
          ? settings
          : { ...settings, gateway: { kind: 'remote' as const, profile: known(profile)! } };
      const target = await gatewayTarget(chosen, ctx.keys, ctx.headers);
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
      const catalogue = ctx.catalogue();
      const client = createGatewayClient({
        profile: target.profile,
        apiKey: target.apiKey,
        catalogue,
      });
      try {
        const answer = await client.listModels();
        if (!answer.ok) {
          return { ok: false, message: answer.message, httpStatus: answer.status, models: null };
        }
        const models = answer.value;
        if (!models) {
          return {
            ok: true,
            message: 'The gateway accepted the key (it does not list its models).',
            httpStatus: answer.status,
            models: null,
          };
        }
        const unknownModels = models.filter((id) => !catalogue.knows(id));
        const listed = `${models.length} ${models.length === 1 ? 'model' : 'models'}`;
        const unknown =
          unknownModels.length === 0
            ? ''
            : `; Atelier has no entry for ${unknownModels.length} of them (taken as image ` +
              'models until you say what they are)';
        return {
          ok: true,
          message: `The gateway accepted the key and lists ${listed}${unknown}.`,
          httpStatus: answer.status,
          models,
          unknownModels,
        };
      } finally {
        await client.close();
      }
    },
  };
}
