import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Settings } from '../../../../shared/api/schemas/settings.ts';
import type { Handlers } from '../../../../shared/api/types.ts';
import { parseTemplate } from '../../library/naming.ts';
import { AppError } from '../app-error.ts';
import type { AppContext } from '../app-context.ts';
import { resumeIfBudgetAllows } from '../budget-pause.ts';
import type { SettingsValue } from '../settings-store.ts';
import { followRenames, renamedProfiles } from '../../settings/profile-renames.ts';
import { plural } from '../../../../shared/text/plural.ts';
import { PARSE_ONCE } from '../../../../shared/api/define.ts';

/** Settings the running queue was started with: changing one restarts it. */
const QUEUE_SETTINGS = ['library', 'template', 'sidecar', 'manifest', 'thumbnails'] as const;

/** Settings the spend is counted and capped by: the running queue follows them. */
const SPEND_SETTINGS = ['prices', 'currency', 'budget'] as const;

/** The gateway the queue uses, as the settings say it: the demo, or the chosen profile whole. */
function activeGateway(settings: SettingsValue): string {
  if (settings.gateway.kind === 'demo') return 'demo';
  const name = settings.gateway.profile;
  return JSON.stringify(settings.profiles.find((p) => p.name === name) ?? name);
}

/** The settings as a client sees them: every header's value masked. */
export async function settingsView(ctx: AppContext, settings: SettingsValue) {
  return { ...settings, profiles: await ctx.headers.view(settings.profiles) };
}

/**
 * What follows a change of the settings, made here or by another process on the same data
 * folder: the queue restarts on a new gateway or library, takes new limits as it runs, and
 * every client hears `settings.changed`. Another process's change never starts a queue that
 * is not running here: that process may be about to run it itself (the CLI saves its flags,
 * then starts).
 */
export async function settingsChanged(
  ctx: AppContext,
  before: SettingsValue,
  next: SettingsValue,
  { elsewhere = false }: { elsewhere?: boolean } = {},
): Promise<void> {
  // (a profile added or edited while another gateway is in use restarts nothing)
  const restart =
    activeGateway(before) !== activeGateway(next) ||
    QUEUE_SETTINGS.some((key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]));
  const spendChanged = SPEND_SETTINGS.some(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]),
  );
  if (restart) {
    await ctx.refreshSecrets();
    if (!elsewhere || ctx.session.state !== 'stopped') await ctx.restartQueue();
  } else {
    if (
      before.concurrency !== next.concurrency ||
      before.requestsPerMinute !== next.requestsPerMinute
    ) {
      // limits change in the running pool, no restart
      ctx.session.engine?.setLimits({
        concurrency: next.concurrency,
        requestsPerMinute: next.requestsPerMinute,
      });
    }
    // prices and caps apply to the running queue at once
    if (spendChanged) ctx.session.followSpendSettings(next, ctx.catalogue());
  }
  ctx.hub.send({ type: 'settings.changed', payload: {} });
  // a cap raised (or another gateway chosen) lifts the budget pause it no longer makes
  if (spendChanged || restart) resumeIfBudgetAllows(ctx);
}

export function settingsHandlers(ctx: AppContext): Handlers['settings'] {
  return {
    async get() {
      return settingsView(ctx, ctx.settings.read());
    },
    async update({ profiles, ...patch }) {
      const before = ctx.settings.read();
      const headers = profiles ? ctx.headers.prepare(profiles, before.profiles) : null;
      // a profile renamed in place keeps what names it: its key, its cap, its spend
      const renamed = profiles ? renamedProfiles(before.profiles, profiles) : new Map();
      const next = Settings.parse(
        followRenames(
          Settings.parse(
            {
              ...before,
              ...patch,
              ...(headers ? { profiles: headers.profiles } : {}),
            },
            PARSE_ONCE,
          ),
          renamed,
        ),
        PARSE_ONCE,
      );
      checkRules(ctx, before, next);
      // the values first: a crash between leaves a value unused, never a header without one
      await headers?.commit();
      ctx.settings.write(next);
      if (profiles) {
        await ctx.keys.followProfiles(new Set(next.profiles.map((p) => p.name)), renamed);
        for (const [from, to] of renamed) ctx.store.spend.renameGateway(from, to);
      }
      await settingsChanged(ctx, before, next);
      return settingsView(ctx, next);
    },
  };
}

/** What the schema cannot say: names that must match, a template, a library that can move. */
function checkRules(ctx: AppContext, before: SettingsValue, next: SettingsValue): void {
  const names = new Set<string>();
  for (const profile of next.profiles) {
    if (names.has(profile.name)) {
      throw new AppError(
        'settings-invalid',
        `Two gateways are named "${profile.name}": rename one.`,
      );
    }
    names.add(profile.name);
  }
  if (next.gateway.kind === 'remote' && !names.has(next.gateway.profile)) {
    throw new AppError(
      'settings-invalid',
      `There is no gateway named "${next.gateway.profile}": add it first, then choose it.`,
    );
  }
  if (next.template !== null && next.template !== before.template) {
    try {
      parseTemplate(next.template);
    } catch (error) {
      throw new AppError('settings-invalid', (error as Error).message);
    }
  }
  if (next.library !== before.library) checkLibraryMove(ctx, next.library);
}

/**
 * One library per data folder: the batches' folders are paths inside it. It can change while
 * nothing is being written, and only to a folder that holds the images written so far (moved
 * there by the person), so the gallery keeps finding them.
 */
function checkLibraryMove(ctx: AppContext, library: string | null): void {
  if (library !== null && !isAbsolute(library)) {
    throw new AppError(
      'settings-invalid',
      `The library folder must be a full path (got "${library}").`,
    );
  }
  const downloads = ctx.store.images.counts();
  const jobs = ctx.store.jobs.counts();
  // a request in flight writes its images to the folder it started with
  if (jobs.running + downloads.pending + downloads.downloading > 0) {
    throw new AppError(
      'library-busy',
      'Images are still being made or written: pause the queue and wait for the requests and ' +
        'downloads under way to finish, then change the folder.',
    );
  }
  const [written] = ctx.store.gallery.ids({ downloadStates: ['done'], order: 'oldest' }, null, 1);
  if (written === undefined) return;
  const image = ctx.store.images.get(written)!;
  const target = library ?? ctx.defaultLibraryDir;
  if (!existsSync(join(target, image.relPath!))) {
    throw new AppError(
      'library-busy',
      `The library holds ${plural(downloads.done, 'image')} that ${target} does not have: ` +
        'move the library there (Atelier moves its files), or move its folder there yourself ' +
        'first, then choose it.',
    );
  }
}
