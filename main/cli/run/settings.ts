import { resolve } from 'node:path';
import type { z } from 'zod';
import type { SettingsPatch } from '../../../shared/api/schemas/settings.ts';
import { GatewayProfileSchema } from '../../../shared/gateway/profile.ts';
import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import type { SettingsValue } from '../../core/app/settings-store.ts';
import { parseTemplate, TemplateError } from '../../core/library/naming.ts';
import { COMMAND_LINE_PROFILE } from '../../core/settings/legacy-settings.ts';
import type { StoredProfile } from '../../core/settings/header-secrets.ts';
import { ConfigError, UsageError } from '../command.ts';
import { DEFAULT_LIBRARY_DIR } from '../data-folder.ts';

/** Flags that say how to run the queue; absent ones come from the data folder's settings. */
export interface SettingsFlags {
  demo?: boolean;
  gateway?: string;
  headers?: Record<string, string>;
  out?: string;
  concurrency?: number;
  requestsPerMinute?: number;
  template?: string;
  sidecar?: boolean;
  manifest?: boolean;
  thumbnails?: boolean;
}

/** What a CLI that is the first to use a data folder starts it with: no extra files unasked. */
export const CLI_SEED: Partial<SettingsValue> = { manifest: false, thumbnails: false };

export type Patch = z.input<typeof SettingsPatch>;
type ProfileInput = NonNullable<Patch['profiles']>[number];

/** This run's settings: what the flags change (saved for next time), and what follows. */
export interface SettingsPlan {
  /** The flags given, as a change to the data folder's settings; null when none was. */
  patch: Patch | null;
  /** Whether the embedded simulator answers (no key needed). */
  demo: boolean;
  /** Said first when the data folder chose no gateway and no flag did: the demo answers. */
  notice: string | null;
  /** Where the images go. */
  library: string;
}

export const DEMO_NOTICE =
  'No gateway is chosen for this data folder, so the embedded demo gateway answers (nothing is ' +
  'charged); choose one with --gateway URL or in the app’s Settings.';

/**
 * The data folder's settings with the flags applied: the gateway the folder chose (the demo
 * when none was), `--demo` or `--gateway URL` (the "Command line" profile) instead, and
 * `--header`s over the chosen gateway's. `cwd` resolves relative folders.
 */
export function settingsPlan(
  flags: SettingsFlags,
  current: SettingsValue,
  cwd: string,
): SettingsPlan {
  const patch: Patch = {};
  if (flags.template !== undefined) {
    checkTemplate(flags.template);
    patch.template = flags.template;
  }
  if (flags.concurrency !== undefined) patch.concurrency = flags.concurrency;
  if (flags.requestsPerMinute !== undefined) patch.requestsPerMinute = flags.requestsPerMinute;
  for (const key of ['sidecar', 'manifest', 'thumbnails'] as const) {
    if (flags[key] !== undefined) patch[key] = flags[key];
  }
  const library = resolveLibrary(flags.out, current.library, cwd);
  // one library per data folder: named at the first run, whichever host opens it next
  if (current.library !== library) patch.library = library;
  Object.assign(patch, gatewayPatch(flags, current));
  const gateway = patch.gateway ?? current.gateway;
  const chose = flags.demo || flags.gateway !== undefined;
  return {
    patch: Object.keys(patch).length > 0 ? patch : null,
    demo: gateway.kind === 'demo',
    notice: !chose && gateway.kind === 'demo' ? DEMO_NOTICE : null,
    library,
  };
}

/** The profiles as a client sends them back unchanged: each header kept by its id. */
function asInput(profile: StoredProfile): ProfileInput {
  return { ...profile, headers: profile.headers.map(({ name, id }) => ({ name, id })) };
}

function gatewayPatch(flags: SettingsFlags, current: SettingsValue): Patch {
  const headers = Object.entries(flags.headers ?? {});
  if (flags.demo && flags.gateway !== undefined) {
    throw new UsageError('give either --demo or --gateway URL, not both.');
  }
  if (flags.demo) {
    if (headers.length > 0) {
      throw new UsageError('--header is for a real gateway (--gateway URL), not --demo.');
    }
    return { gateway: { kind: 'demo' } };
  }
  if (flags.gateway !== undefined) {
    // user:password@ is never sent, saved or printed: the key comes from ATELIER_API_KEY
    const baseUrl = withoutCredentials(flags.gateway);
    const checked = GatewayProfileSchema.shape.baseUrl.safeParse(baseUrl);
    if (!checked.success) {
      throw new ConfigError(`--gateway ${baseUrl}: ${checked.error.issues[0]!.message}`);
    }
    // (the gateway-specific names keep what Settings says, or the interface's defaults)
    const kept = current.profiles.find((p) => p.name === COMMAND_LINE_PROFILE);
    const profile: ProfileInput = {
      ...(kept ? asInput(kept) : {}),
      name: COMMAND_LINE_PROFILE,
      baseUrl,
      headers: headers.map(([name, value]) => ({ name, value })),
    };
    return {
      profiles: [
        ...current.profiles.filter((p) => p.name !== COMMAND_LINE_PROFILE).map(asInput),
        profile,
      ],
      gateway: { kind: 'remote', profile: COMMAND_LINE_PROFILE },
    };
  }
  if (headers.length === 0) return {};
  const chosen = current.gateway.kind === 'remote' ? current.gateway.profile : null;
  if (chosen === null) {
    throw new UsageError('--header is for a real gateway (--gateway URL), not the demo.');
  }
  // each header given replaces the one of its name; the others stay
  return {
    profiles: current.profiles.map((stored) => {
      const profile = asInput(stored);
      if (profile.name !== chosen) return profile;
      const given = new Set(headers.map(([name]) => name.toLowerCase()));
      return {
        ...profile,
        headers: [
          ...(profile.headers ?? []).filter((h) => !given.has(h.name.toLowerCase())),
          ...headers.map(([name, value]) => ({ name, value })),
        ],
      };
    }),
  };
}

/** One library per data folder: the batches' folders are relative to it. */
function resolveLibrary(out: string | undefined, saved: string | null, cwd: string): string {
  if (out === undefined) return saved ?? resolve(cwd, DEFAULT_LIBRARY_DIR);
  const library = resolve(cwd, out);
  if (saved !== null && saved !== library) {
    throw new ConfigError(
      `This data folder's images go to ${saved}, not ${library}: its unfinished ` +
        'downloads would be split between two libraries. Leave out --out, or use another data ' +
        'folder for another library (--data DIR).',
    );
  }
  return library;
}

function checkTemplate(template: string): void {
  try {
    parseTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError) throw new UsageError(`--template: ${error.message}`);
    throw error;
  }
}
