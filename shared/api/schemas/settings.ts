import { z } from 'zod';
import { GatewayProfileSchema } from '../../gateway/profile.ts';

/** A gateway the person set up; the key is kept apart (never in settings). */
export const GatewayProfileSettings = GatewayProfileSchema.pick({
  name: true,
  baseUrl: true,
  extraHeaders: true,
  requestIdHeader: true,
  advancedSegment: true,
  partialKey: true,
});

export const Price = z.object({
  /** Price of one image in the gateway's quota units. */
  perImage: z.number().nonnegative(),
});

export const Settings = z.object({
  /** Which gateway the queue uses: the built-in simulator, or a profile by name. */
  gateway: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('demo') }),
      z.object({ kind: z.literal('remote'), profile: z.string().min(1) }),
    ])
    .default({ kind: 'demo' }),
  profiles: z.array(GatewayProfileSettings).default([]),
  /** The library folder; null for the platform's usual place. */
  library: z.string().min(1).nullable().default(null),
  concurrency: z.number().int().min(1).max(1024).default(8),
  requestsPerMinute: z.number().int().positive().nullable().default(null),
  /** File name template; null for the default. */
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
  /** The text model used for prompt help. */
  promptModel: z.string().min(1).nullable().default(null),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
});

type Shape = typeof Settings.shape;
type WithoutDefault<S> =
  S extends z.ZodDefault<infer I> ? I : S extends z.ZodPrefault<infer I> ? I : S;

/**
 * A change to some settings; what is left out stays. (Not `Settings.partial()`: a field's
 * default would still fill a left-out key, and a change of one setting would reset the rest.)
 */
export const SettingsPatch = z
  .object(
    Object.fromEntries(
      Object.entries(Settings.shape).map(([key, schema]) => [
        key,
        (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault
          ? (schema.unwrap() as z.ZodType)
          : schema
        ).optional(),
      ]),
    ) as { [K in keyof Shape]: z.ZodOptional<WithoutDefault<Shape[K]>> },
  )
  .strict();
