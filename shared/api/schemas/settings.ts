import { z } from 'zod';
import { GatewayProfileSchema, headerNameProblem } from '../../gateway/profile.ts';
import { DEFAULT_CONFIRM_THRESHOLD } from '../../spend/confirm.ts';
import { lazy } from '../define.ts';

/**
 * The settings of one data folder: one schema, one file (`<data>/settings.json`), read and
 * written by the desktop, the browser host and the CLI through the core. Three views of a
 * gateway profile share every other field: as the file keeps it (`Settings`), as a client sees
 * it (`SettingsView`, extra headers masked) and as a client changes it (`SettingsPatch`).
 * A new setting is one line in `settingsFields`.
 */

/** An extra header's name: a token, and never one Atelier sends itself. */
export const HeaderName = z.string().superRefine((name, context) => {
  const problem = headerNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** Where a header's value is kept in the host's secret store: an opaque id, never the value. */
export const HeaderId = z.string().regex(/^[0-9a-f]{12,32}$/, 'not a header id');

/**
 * An extra header's value. Headers are credentials (a gateway's upstream keys travel in them):
 * kept like the key, never in the settings file, never sent back to a client.
 */
export const HeaderValue = z
  .string()
  .trim()
  .min(1, 'the header has no value')
  .max(8192, 'a header value is at most 8,192 characters')
  .regex(/^[^\r\n\0]*$/, 'a header value is one line');

/** An extra header as the settings file keeps it: its name, and where its value is. */
export const StoredHeader = z.object({ name: HeaderName, id: HeaderId });

/**
 * An extra header as a client sees it: never the value, only its last four characters. (The
 * views are built on first use: a CLI run reads and changes the settings, never shows them.)
 */
export const HeaderView = lazy(() =>
  StoredHeader.extend({
    /** Null when this process has no value for it (the browser host or the CLI, restarted). */
    last4: z.string().max(4).nullable(),
    /** env: ATELIER_GATEWAY_HEADERS; stored: the system keyring; memory: this process only. */
    source: z.enum(['env', 'stored', 'memory']).nullable(),
  }),
);

/** An extra header as a client sends it: keep the value kept under `id`, or a new value. */
export const HeaderInput = z.union([
  z.object({ name: HeaderName, id: HeaderId }).strict(),
  z.object({ name: HeaderName, value: HeaderValue }).strict(),
]);

const MAX_HEADERS = 64;

/** A gateway profile with its headers in one of the three forms; names unique, any case. */
function profileOf<H extends z.ZodType<{ name: string }>>(header: H) {
  return GatewayProfileSchema.pick({
    name: true,
    baseUrl: true,
    requestIdHeader: true,
    advancedSegment: true,
    partialKey: true,
    multipartImageField: true,
  }).extend({
    headers: z
      .array(header)
      .max(MAX_HEADERS)
      .default([])
      .refine(
        (headers) => new Set(headers.map((h) => h.name.toLowerCase())).size === headers.length,
        'An extra header is given twice: keep one of each name.',
      ),
  });
}

/** A gateway the person set up, as the settings file keeps it; the key and header values apart. */
export const GatewayProfileSettings = profileOf(StoredHeader);
export const GatewayProfileView = lazy(() => profileOf(HeaderView.unwrap()));
export const GatewayProfileInput = profileOf(HeaderInput);

export const Price = z.object({
  /** Price of one image in the gateway's quota units. */
  perImage: z.number().nonnegative(),
});

/** An amount of the gateway's quota units (a cap, a threshold). */
const Units = z.number().nonnegative().max(1e15);

/** Above either, starting work needs the person's confirmation of what it will spend. */
export const ConfirmSpendSettings = z.object({
  units: Units.nullable().default(DEFAULT_CONFIRM_THRESHOLD.units),
  requests: z.number().int().positive().nullable().default(DEFAULT_CONFIRM_THRESHOLD.requests),
});

/**
 * Spending caps in quota units, enforced by the queue before each request (see
 * shared/spend/budget.ts); null: no cap.
 */
export const BudgetSettings = z.object({
  perBatch: Units.nullable().default(null),
  perDay: Units.nullable().default(null),
  /** Today's cap per gateway, by profile name (`demo` for the built-in simulator). */
  perGatewayDay: z.record(z.string().min(1), Units).default({}),
});

/** Which gateway the queue uses: the built-in simulator, or a profile by name. */
export const GatewayChoice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('demo') }),
  z.object({ kind: z.literal('remote'), profile: z.string().min(1) }),
]);

function settingsFields<P extends z.ZodType>(profile: P) {
  return {
    gateway: GatewayChoice.default({ kind: 'demo' }),
    profiles: z.array(profile).default([]),
    /** The library folder; null for the host's usual place. */
    library: z.string().min(1).nullable().default(null),
    concurrency: z.number().int().min(1).max(1024).default(8),
    requestsPerMinute: z.number().int().positive().nullable().default(null),
    /**
     * File name template; null for the earlier default, `{batch}/{index}-{slug}-{seed}.{ext}`.
     * A new data folder starts with NEW_FOLDER_TEMPLATE (shared/library/templates.ts).
     */
    template: z.string().min(1).nullable().default(null),
    sidecar: z.boolean().default(false),
    manifest: z.boolean().default(true),
    thumbnails: z.boolean().default(true),
    notifications: z.object({ batchFinished: z.boolean().default(true) }).prefault({}),
    /** Prices for the estimate, by model id. */
    prices: z.record(z.string(), Price).default({}),
    /** Quota units to a currency, for showing spend in money too. */
    currency: z
      .object({ code: z.string().min(1).max(8), perUnit: z.number().positive() })
      .nullable()
      .default(null),
    /** The model a fresh Compose starts with when no model was used before; null: the first. */
    defaultModel: z.string().min(1).nullable().default(null),
    /** Above these, a batch starts only once the person confirmed its spend. */
    confirmSpend: ConfirmSpendSettings.prefault({}),
    budget: BudgetSettings.prefault({}),
    /** The text model used for prompt help. */
    promptModel: z.string().min(1).nullable().default(null),
    theme: z.enum(['system', 'light', 'dark']).default('system'),
  };
}

/** The settings as the data folder's file keeps them (header values apart). */
export const Settings = z.object(settingsFields(GatewayProfileSettings));

/** The settings as `settings.get` and `settings.update` answer: header values masked. */
export const SettingsView = lazy(() => z.object(settingsFields(GatewayProfileView.unwrap())));

type Fields = ReturnType<typeof settingsFields<typeof GatewayProfileInput>>;
type WithoutDefault<S> =
  S extends z.ZodDefault<infer I> ? I : S extends z.ZodPrefault<infer I> ? I : S;

/**
 * A change to some settings; what is left out stays. (Not `Settings.partial()`: a field's
 * default would still fill a left-out key, and a change of one setting would reset the rest.)
 * Profiles come whole, each header kept by its id or given a new value.
 */
export const SettingsPatch = z
  .object(
    Object.fromEntries(
      Object.entries(settingsFields(GatewayProfileInput)).map(([key, schema]) => [
        key,
        (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault
          ? (schema.unwrap() as z.ZodType)
          : schema
        ).optional(),
      ]),
    ) as { [K in keyof Fields]: z.ZodOptional<WithoutDefault<Fields[K]>> },
  )
  .strict();
