import { join } from 'node:path';
import { z } from 'zod';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import type { SettingsValue } from '../../core/app/settings-store.ts';
import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import { ConfigError } from '../command.ts';
import { writeFileAtomic } from '../../core/app/atomic-file.ts';
import { readConfigFile } from '../../core/app/config-file.ts';

/**
 * What `atelier resume` and `atelier retry` need to carry on without the original flags,
 * kept in the data folder beside the database (`cli-settings.json`). The key is never
 * written: it comes from ATELIER_API_KEY each time, and credentials in the gateway's address
 * (`user:password@`) are dropped, read or written. Extra headers are kept, so the file is
 * readable by its owner only.
 *
 * Not `conf`: it pulls in `when-exit`, which re-raises SIGINT after its own cleanup, so the
 * first Ctrl+C would also count as the second and stop the run at once instead of pausing.
 */
const GatewayChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('demo') }),
  z.object({
    kind: z.literal('remote'),
    baseUrl: z.string().min(1).transform(withoutCredentials),
    extraHeaders: z.record(z.string(), z.string()),
  }),
]);

const SavedSettingsSchema = z.object({
  gateway: GatewayChoiceSchema,
  /** Absolute; one library per data folder (the batches' folders are relative to it). */
  library: z.string().min(1),
  concurrency: z.number().int().positive(),
  requestsPerMinute: z.number().int().positive().nullable(),
  template: z.string().nullable(),
  sidecar: z.boolean(),
  manifest: z.boolean(),
  thumbnails: z.boolean(),
});

export type GatewayChoice = z.infer<typeof GatewayChoiceSchema>;
export type SavedSettings = z.infer<typeof SavedSettingsSchema>;

const FILE_NAME = 'cli-settings.json';

export function settingsPath(dataDir: string): string {
  return join(dataDir, FILE_NAME);
}

/** The data folder's saved settings, or null when nothing ran there from the CLI yet. */
export function loadSettings(dataDir: string): SavedSettings | null {
  const path = settingsPath(dataDir);
  return readConfigFile(path, SavedSettingsSchema, {
    fix: 'Delete it and give --gateway URL (or --demo) and --out DIR again.',
    describe: (issue) =>
      `${path} is not valid (${issue.path.join('.') || 'file'}: ${issue.message}).`,
  });
}

/** Written whole (see writeFileAtomic): a crash leaves the old or the new file. */
export function saveSettings(dataDir: string, settings: SavedSettings): void {
  const path = settingsPath(dataDir);
  try {
    writeFileAtomic(path, `${JSON.stringify(SavedSettingsSchema.parse(settings), null, 2)}\n`);
  } catch (error) {
    throw new ConfigError(`Cannot save ${path}: ${(error as Error).message}.`);
  }
}

/** The profile a `--gateway URL` stands for in the application's settings. */
export const COMMAND_LINE_PROFILE = 'Command line';

/** The CLI's saved settings as the application's settings (what the core's queue session reads). */
export function appSettings(saved: SavedSettings): SettingsValue {
  const remote = saved.gateway.kind === 'remote' ? saved.gateway : null;
  return Settings.parse({
    gateway: remote ? { kind: 'remote', profile: COMMAND_LINE_PROFILE } : { kind: 'demo' },
    profiles: remote
      ? [{ name: COMMAND_LINE_PROFILE, baseUrl: remote.baseUrl, extraHeaders: remote.extraHeaders }]
      : [],
    library: saved.library,
    concurrency: saved.concurrency,
    requestsPerMinute: saved.requestsPerMinute,
    template: saved.template,
    sidecar: saved.sidecar,
    manifest: saved.manifest,
    thumbnails: saved.thumbnails,
  });
}
