import { z } from 'zod';
import { OUTPUT_FORMATS } from '../../gateway/catalogue.ts';
import { Count, Id, lazy } from '../define.ts';
import { ConfirmedSpend, SpendCheck } from './spend.ts';

/** The most gallery images one edit may take (one job each). */
export const MAX_EDIT_IMAGES = 500;
/** The prompts text: room for a thousand long prompts, one a line. */
const MAX_PROMPTS_TEXT = 4 * 1024 * 1024;
/** A mask as base64. A hard-edged black PNG is small: 8192×8192 takes well under this. */
export const MAX_MASK_BASE64 = 32 * 1024 * 1024;

/**
 * A mask: a PNG the size of the picture (another size of the same shape is scaled, another
 * shape stretched with a warning), transparent where the picture may change. The service cuts
 * it hard (alpha 0 or 255) and black before it is sent.
 */
export const EditMask = lazy(() => z.object({ png: z.base64().min(1).max(MAX_MASK_BASE64) }));

/**
 * An edit: gallery images (by id: a window names nothing else) and prompts, one a line. One
 * image with one or many prompts makes a job per prompt; many images with one prompt a job
 * per image. The model must be one that edits (its catalogue entry's `edit`).
 */
export const EditInput = lazy(() =>
  z.object({
    images: z.array(Id).min(1).max(MAX_EDIT_IMAGES),
    prompts: z.string().min(1).max(MAX_PROMPTS_TEXT),
    mask: EditMask.optional(),
    model: z.string().min(1).max(200),
    n: z.number().int().min(1).max(10).optional(),
    /** Where the model takes one; left out, the model's own (usually the picture's size). */
    size: z.string().min(1).max(32).optional(),
    quality: z.string().min(1).max(64).optional(),
    output_format: z.enum(OUTPUT_FORMATS).optional(),
    negative_prompt: z.string().max(10_000).optional(),
    seed: z.number().int().min(0).max(4_294_967_295).optional(),
    /** Paste each result back over its picture outside the mask (locally, slightly feathered). */
    keepOutsideMask: z.boolean().default(false),
  }),
);

export const CreateEditsInput = lazy(() =>
  EditInput.unwrap().extend({
    /** By default the prompt, or what is edited. */
    name: z.string().min(1).max(200).optional(),
    /** Created held: nothing runs until it is resumed. */
    paused: z.boolean().optional(),
    /** Run before everything queued. */
    position: z.enum(['back', 'front']).default('back'),
    /** The spend the person confirmed, when it passes the threshold (see batches.create). */
    confirmedSpend: ConfirmedSpend.optional(),
  }),
);

/** A problem or a warning about one row of the edit, which it names. */
export const EditIssue = lazy(() =>
  z.object({
    /** For a person: `image 42 (Foxes/0001-fox.png)`, `prompt on line 3`, `the mask`, `the settings`. */
    label: z.string(),
    /** The gallery image it is about. */
    imageId: Id.optional(),
    /** The prompt's line it is about. */
    line: z.number().int().positive().optional(),
    message: z.string(),
  }),
);

/** What the edit would queue, checked as the run would send it; nothing is sent. */
export const EditCheck = lazy(() =>
  z.object({
    /** Jobs it would make (one per image and prompt that passed). */
    jobs: Count,
    /** Images it would ask for (the sum of n). */
    images: Count,
    /** Problems that stop it, capped at 1,000; `bad` counts them all. */
    errors: z.array(EditIssue),
    bad: Count,
    /** What it will do that may surprise (a mask stretched to another shape). */
    warnings: z.array(EditIssue),
    /** Jobs and images per model, for the estimate (as a batch check gives them). */
    models: z.record(z.string(), z.object({ jobs: Count, images: Count })),
    /** What it will spend, and whether creating it needs `confirmedSpend`. */
    spend: SpendCheck,
  }),
);

/** What an image was edited from (ImageDetail.editedFrom). */
export const EditedFrom = lazy(() =>
  z.object({
    /** The gallery image; null for a file from outside the library, or once it was deleted. */
    imageId: Id.nullable(),
    /** Its library path when edited, or the file's path. */
    label: z.string(),
    /** A mask limited the edit. */
    mask: z.boolean(),
    /** The result was to be pasted back over the picture outside the mask. */
    keepOutsideMask: z.boolean(),
  }),
);
