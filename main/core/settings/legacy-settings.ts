import { z } from 'zod';
import { lazy } from '../../../shared/api/define.ts';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import type { SettingsValue } from '../app/settings-store.ts';
import { newHeaderId, type StoredProfile } from './header-secrets.ts';

/**
 * Settings files older Atelier versions wrote, read once into the data folder's one file:
 * - `app`: the browser host's `<data>/settings.json` before it had a version, and the
 *   desktop's electron-store `settings.json`: the same fields, extra headers in plain text;
 * - `cli`: the CLI's `<data>/cli-settings.json` (gateway, library, limits, outputs).
 */
export type LegacyKind = 'app' | 'cli';

export interface LegacyFile {
  path: string;
  kind: LegacyKind;
}

/** What one old file says: only the fields it holds, headers' values apart under fresh ids. */
export interface LegacySettings {
  fields: Partial<SettingsValue>;
  values: Map<string, string>;
}

/** The profile a CLI `--gateway URL` stands for in the settings. */
export const COMMAND_LINE_PROFILE = 'Command line';

const plainHeaders = () => z.record(z.string(), z.string()).default({});

// (built on first use: only a data folder holding an old file needs them)
const OldProfile = lazy(() =>
  z.object({
    name: z.string().min(1),
    baseUrl: z.string().min(1),
    extraHeaders: plainHeaders(),
    requestIdHeader: z.string().min(1).optional(),
    advancedSegment: z.string().min(1).optional(),
    partialKey: z.string().min(1).optional(),
  }),
);

const OldCliSettings = lazy(() =>
  z.object({
    gateway: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('demo') }),
      z.object({
        kind: z.literal('remote'),
        baseUrl: z.string().min(1),
        extraHeaders: plainHeaders(),
      }),
    ]),
    library: z.string().min(1),
    concurrency: z.number().int().positive(),
    requestsPerMinute: z.number().int().positive().nullable(),
    template: z.string().nullable(),
    sidecar: z.boolean(),
    manifest: z.boolean(),
    thumbnails: z.boolean(),
  }),
);

/** Every field optional and without its default: a file's fields, and only those. */
const SomeSettings = lazy(() =>
  z.object(
    Object.fromEntries(
      Object.entries(Settings.shape).map(([key, schema]) => [
        key,
        (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault
          ? (schema.unwrap() as z.ZodType)
          : (schema as z.ZodType)
        ).optional(),
      ]),
    ),
  ),
) as unknown as z.ZodType<Partial<SettingsValue>>;

/** A file's JSON as settings fields, or the reason it cannot be used (a person's sentence). */
export function readLegacy(kind: LegacyKind, json: unknown): LegacySettings | string {
  const values = new Map<string, string>();
  const keep = (headers: Record<string, string>): StoredProfile['headers'] =>
    Object.entries(headers).map(([name, value]) => {
      const id = newHeaderId();
      values.set(id, value);
      return { name, id };
    });
  let fields: unknown;
  if (kind === 'cli') {
    const parsed = OldCliSettings.safeParse(json);
    if (!parsed.success) return describe(parsed.error);
    const { gateway, ...rest } = parsed.data;
    fields = {
      ...rest,
      gateway:
        gateway.kind === 'demo' ? gateway : { kind: 'remote', profile: COMMAND_LINE_PROFILE },
      ...(gateway.kind === 'remote'
        ? {
            profiles: [
              {
                name: COMMAND_LINE_PROFILE,
                baseUrl: withoutCredentials(gateway.baseUrl),
                headers: keep(gateway.extraHeaders),
              },
            ],
          }
        : {}),
    };
  } else {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      return 'it is not a JSON object';
    }
    const { profiles, ...rest } = json as Record<string, unknown>;
    let converted: unknown[] | undefined;
    if (profiles !== undefined) {
      const parsed = z.array(OldProfile).safeParse(profiles);
      if (!parsed.success) return describe(parsed.error, ['profiles']);
      converted = parsed.data.map(({ extraHeaders, ...profile }) => ({
        ...profile,
        headers: keep(extraHeaders),
      }));
    }
    fields = { ...rest, ...(converted ? { profiles: converted } : {}) };
  }
  const parsed = SomeSettings.safeParse(fields);
  if (!parsed.success) return describe(parsed.error);
  return { fields: parsed.data, values };
}

function describe(error: z.ZodError, prefix: PropertyKey[] = []): string {
  const issue = error.issues[0]!;
  const path = [...prefix, ...issue.path].join('.');
  return `${path || 'the file'}: ${issue.message}`;
}

/**
 * Several files' fields as one: the older first, each newer file's fields replacing what the
 * older said (profiles by name, so none is lost), then the schema's defaults for the rest.
 */
export function mergeSettings(
  olderFirst: ReadonlyArray<Partial<SettingsValue>>,
  base: Partial<SettingsValue> = {},
): SettingsValue {
  const merged: Partial<SettingsValue> = { ...base };
  for (const fields of olderFirst) {
    const { profiles, ...rest } = fields;
    Object.assign(merged, rest);
    if (profiles) {
      const byName = new Map((merged.profiles ?? []).map((p) => [p.name, p]));
      for (const profile of profiles) byName.set(profile.name, profile);
      merged.profiles = [...byName.values()];
    }
  }
  // a chosen profile that no file kept (a damaged older file) falls back to the demo
  if (
    merged.gateway?.kind === 'remote' &&
    !merged.profiles?.some((p) => p.name === (merged.gateway as { profile: string }).profile)
  ) {
    merged.gateway = { kind: 'demo' };
  }
  return Settings.parse(merged);
}
