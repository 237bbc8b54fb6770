import type { AppContext } from './app-context.ts';
import type { SettingsValue } from './settings-store.ts';

export interface ModelWarning {
  model: string;
  message: string;
}

/** How long the gateway's list of models is trusted (a check runs as the person types). */
const LIST_TTL_MS = 30_000;
/** A check waits no longer than this for the list: it is advice, not a condition. */
const LIST_TIMEOUT_MS = 5_000;

/**
 * What the gateway says of the video models a batch would use, before it runs: its list of
 * the models this key may use (`GET /v1/models`), asked at most every 30 s per gateway and
 * key. Says nothing when the gateway does not list its models or cannot be asked.
 */
export class ModelAccess {
  private cached: { key: string; at: number; models: ReadonlySet<string> | null } | null = null;

  async videoWarnings(ctx: AppContext, models: readonly string[]): Promise<ModelWarning[]> {
    const catalogue = ctx.catalogue();
    const videos = models.filter((model) => catalogue.lookup(model).kind === 'video');
    if (videos.length === 0) return [];
    const listed = await this.listed(ctx);
    if (!listed) return [];
    return videos
      .filter((model) => !listed.has(model))
      .map((model) => ({
        model,
        message: `The gateway's list of models for this key leaves out ${model}. Video models are often given only on request: ask for access in the gateway's console, or its jobs will pause the queue with a permission error.`,
      }));
  }

  private async listed(ctx: AppContext): Promise<ReadonlySet<string> | null> {
    const settings = ctx.settings.read();
    const key = `${JSON.stringify(settings.gateway)}|${(await ctx.keys.status(profileOf(settings))).last4 ?? ''}`;
    const now = ctx.now();
    if (this.cached?.key === key && now - this.cached.at < LIST_TTL_MS) return this.cached.models;
    const lent = await ctx.session.lendClient(settings, ctx.catalogue());
    if ('code' in lent) return null;
    try {
      const answer = await lent.client.listModels({ signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
      if (!answer.ok) return null;
      const models = answer.value ? new Set(answer.value) : null;
      this.cached = { key, at: now, models };
      return models;
    } finally {
      await lent.release();
    }
  }
}

/** The profile the settings send to; null for the demo (it needs no key). */
export function profileOf(settings: SettingsValue): string | null {
  return settings.gateway.kind === 'remote' ? settings.gateway.profile : null;
}
