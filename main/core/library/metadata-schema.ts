import { z } from 'zod';

/**
 * Validates metadata read from a file, which may have been written by anything. Apart from
 * metadata.ts, so that writing images (the file placer's thread) does not load zod.
 */
export const imageMetadataSchema = z.object({
  prompt: z.string(),
  negativePrompt: z.string().nullable().optional(),
  model: z.string(),
  size: z.string(),
  seed: z.number().nullable().optional(),
  index: z.number().int(),
  batch: z.string(),
  requestId: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string(),
  software: z.string().optional(),
  truncated: z.boolean().optional(),
  textInParameters: z
    .object({
      prompt: z.number().int().nonnegative(),
      negativePrompt: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
