import { z } from 'zod';
import { lazy } from '../api/define.ts';

/**
 * What Atelier knows about each model: which body it speaks, which sizes and options it takes.
 * The gateway does not publish this (interface 1: "obtained from the console"), so the app
 * ships entries for well-known models and lets the person add or override their own.
 */

export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp'] as const;

// (built on first use: the built-in entries are completed without a parse, see completeEntry)
const ImageEntrySchema = lazy(() =>
  z.object({
    kind: z.literal('image'),
    id: z.string().min(1),
    /** Body used by `generateImage`: OpenAI (2.1), Qwen-style (2.3), the advanced entry, or none. */
    protocol: z.enum(['openai', 'qwen', 'advanced', 'none']),
    /** Whether the model is also offered on the advanced entry (2.2). */
    advanced: z.boolean().default(false),
    /** Body used by `editImage` on /v1/images/edits (2.4), or none when the model cannot edit. */
    edit: z.enum(['multipart', 'qwen-json', 'none']).default('none'),
    /** The largest file an edit may send (the picture, and the mask), in bytes; null: no limit known. */
    editMaxBytes: z.number().int().positive().nullable().default(null),
    /** The model edits square pictures only. */
    editSquare: z.boolean().default(false),
    /** Allowed `WxH` sizes, or 'any' within [minSide, maxSide]. */
    sizes: z.union([z.literal('any'), z.array(z.string().regex(/^\d+x\d+$/)).min(1)]),
    minSide: z.number().int().positive().default(1),
    maxSide: z.number().int().positive().default(8192),
    nMin: z.number().int().min(1).default(1),
    nMax: z.number().int().min(1).default(10),
    /** Accepted `quality` values, 'any' when unchecked; empty when the model takes none. */
    quality: z.union([z.literal('any'), z.array(z.string())]).default([]),
    /** Accepted `output_format` values; empty when the model takes none. */
    outputFormats: z.array(z.enum(OUTPUT_FORMATS)).default([]),
    seed: z.boolean().default(false),
    negativePrompt: z.boolean().default(false),
    /** Whether the model takes the free-form vendor bag (`extra` / `extra_fields`). */
    extra: z.boolean().default(false),
    /** The longest prompt the model takes, in characters; null: none known. */
    maxPromptChars: z.number().int().positive().nullable().default(null),
    /** Quota per image, for estimates only; null when unknown. */
    pricePerImage: z.number().nonnegative().nullable().default(null),
  }),
);

const TextEntrySchema = lazy(() =>
  z.object({
    kind: z.literal('text'),
    id: z.string().min(1),
    /** Which endpoint prompt help streams from: chat completions (when left out) or responses. */
    api: z.enum(['chat', 'responses']).optional(),
  }),
);

const VideoEntrySchema = lazy(() =>
  z.object({
    kind: z.literal('video'),
    id: z.string().min(1),
    /** Most video models use /v1/videos; some documents require /v1/video/generations. */
    submitPath: z.enum(['videos', 'video-generations']).default('videos'),
    seconds: z.array(z.string()).default([]),
    sizes: z.array(z.string()).default([]),
    /** How long a task usually takes; past it the job shows "overdue: checking". */
    usualSeconds: z.number().int().positive().optional(),
    maxPromptChars: z.number().int().positive().optional(),
  }),
);

export const ModelEntrySchema = lazy(() =>
  z.discriminatedUnion('kind', [
    ImageEntrySchema.unwrap(),
    TextEntrySchema.unwrap(),
    VideoEntrySchema.unwrap(),
  ]),
);

export type ModelEntry = z.infer<typeof ModelEntrySchema>;
export type ModelEntryInput = z.input<typeof ModelEntrySchema>;
export type ImageModelEntry = z.infer<typeof ImageEntrySchema>;
export type VideoModelEntry = z.infer<typeof VideoEntrySchema>;

const MB = 1024 * 1024;

const BUILT_IN_INPUT: ModelEntryInput[] = [
  {
    kind: 'image',
    id: 'gpt-image-1',
    protocol: 'openai',
    edit: 'multipart',
    editMaxBytes: 50 * MB,
    maxPromptChars: 32_000,
    sizes: ['1024x1024', '1536x1024', '1024x1536'],
    nMax: 10,
    quality: ['low', 'medium', 'high', 'auto'],
    outputFormats: ['png', 'jpeg', 'webp'],
    pricePerImage: 4000,
  },
  {
    kind: 'image',
    id: 'dall-e-3',
    protocol: 'openai',
    maxPromptChars: 4_000,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    nMax: 1,
    quality: ['standard', 'hd'],
    pricePerImage: 4000,
  },
  {
    kind: 'image',
    id: 'dall-e-2',
    protocol: 'openai',
    edit: 'multipart',
    editMaxBytes: 4 * MB,
    editSquare: true,
    maxPromptChars: 1_000,
    sizes: ['256x256', '512x512', '1024x1024'],
    nMax: 10,
    pricePerImage: 2000,
  },
  {
    kind: 'image',
    id: 'qwen-image',
    protocol: 'qwen',
    sizes: ['1328x1328', '1664x928', '928x1664', '1472x1140', '1140x1472'],
    nMax: 4,
    seed: true,
    negativePrompt: true,
    pricePerImage: 2500,
    maxPromptChars: 800,
  },
  {
    kind: 'image',
    id: 'qwen-image-edit',
    protocol: 'none',
    edit: 'qwen-json',
    editMaxBytes: 10 * MB,
    sizes: 'any',
    minSide: 64,
    maxSide: 2048,
    nMax: 4,
    seed: true,
    negativePrompt: true,
    pricePerImage: 2500,
  },
  {
    kind: 'image',
    id: 'flux-pro',
    protocol: 'advanced',
    advanced: true,
    sizes: 'any',
    minSide: 64,
    maxSide: 2048,
    nMax: 10,
    outputFormats: ['png', 'jpeg', 'webp'],
    seed: true,
    extra: true,
    pricePerImage: 3000,
  },
  {
    // Cheap and any size, on generations and the advanced entry: demos and benchmarks.
    kind: 'image',
    id: 'flux-schnell',
    protocol: 'openai',
    advanced: true,
    edit: 'multipart',
    sizes: 'any',
    minSide: 16,
    maxSide: 2048,
    nMax: 10,
    outputFormats: ['png', 'jpeg', 'webp'],
    seed: true,
    extra: true,
    pricePerImage: 300,
  },
  {
    kind: 'video',
    id: 'sora-2',
    seconds: ['4', '8', '12'],
    sizes: ['720x1280', '1280x720'],
    usualSeconds: 300,
  },
  {
    // its document asks for the task API (interface 3, endpoint 9)
    kind: 'video',
    id: 'kling-v2',
    submitPath: 'video-generations',
    seconds: ['5', '10'],
    sizes: ['1280x720', '720x1280', '1024x1024'],
    usualSeconds: 600,
    maxPromptChars: 2500,
  },
  { kind: 'text', id: 'gpt-4o-mini' },
  // the demo gateway's other text models: a chatty one and one that thinks aloud first
  { kind: 'text', id: 'qwen-plus' },
  { kind: 'text', id: 'deepseek-r1' },
];

let builtIn: readonly ModelEntry[] | null = null;

/**
 * The built-in entries, completed on first use: not as the module is evaluated, which every
 * window's opening script and every CLI start would pay for.
 */
export function builtInModels(): readonly ModelEntry[] {
  builtIn ??= BUILT_IN_INPUT.map(completeEntry);
  return builtIn;
}

/**
 * An entry with what its schema fills in for each field it leaves out, without a parse: for
 * our own constants, which a test proves valid and completed as `ModelEntrySchema` would
 * (parsing them compiled the entries' parsers at every start, about 4 ms of CPU).
 */
export function completeEntry(entry: ModelEntryInput): ModelEntry {
  switch (entry.kind) {
    case 'image':
      return {
        advanced: false,
        edit: 'none',
        editMaxBytes: null,
        editSquare: false,
        minSide: 1,
        maxSide: 8192,
        nMin: 1,
        nMax: 10,
        quality: [],
        outputFormats: [],
        seed: false,
        negativePrompt: false,
        extra: false,
        maxPromptChars: null,
        pricePerImage: null,
        ...entry,
      };
    case 'video':
      return { submitPath: 'videos', seconds: [], sizes: [], ...entry };
    case 'text':
      return { ...entry };
  }
}

/**
 * What an unknown model is assumed to accept: the OpenAI body, any `WxH`, n up to 10 and
 * every optional field. The gateway has the last word; Atelier only refuses what is certainly
 * wrong (a malformed size, an n below 1).
 */
export function permissiveEntry(id: string): ImageModelEntry {
  return {
    kind: 'image',
    id,
    protocol: 'openai',
    advanced: true,
    edit: 'multipart',
    editMaxBytes: null,
    editSquare: false,
    maxPromptChars: null,
    sizes: 'any',
    minSide: 1,
    maxSide: 16384,
    nMin: 1,
    nMax: 10,
    quality: 'any',
    outputFormats: [...OUTPUT_FORMATS],
    seed: true,
    negativePrompt: true,
    extra: true,
    pricePerImage: null,
  };
}

/** A video task past this long without a usual time in its entry is overdue (15 minutes). */
export const DEFAULT_VIDEO_USUAL_SECONDS = 900;

/** The longest prompt a model takes, when its entry says; null when it does not. */
export function promptLimitOf(entry: ModelEntry): number | null {
  return entry.kind === 'text' ? null : (entry.maxPromptChars ?? null);
}

export interface Catalogue {
  /** The entry for a model name; unknown names get permissive OpenAI rules. */
  lookup(id: string): ModelEntry;
  /** Whether the name is a built-in or user entry (unknown models are looked up permissively). */
  knows(id: string): boolean;
  entries(): ModelEntry[];
}

/** Built-ins with the person's own entries merged over them (same id: theirs wins). */
export function createCatalogue(userEntries: readonly ModelEntryInput[] = []): Catalogue {
  const byId = new Map<string, ModelEntry>(builtInModels().map((entry) => [entry.id, entry]));
  for (const input of userEntries) {
    const entry = ModelEntrySchema.parse(input);
    byId.set(entry.id, entry);
  }
  return {
    lookup: (id) => byId.get(id) ?? permissiveEntry(id),
    knows: (id) => byId.has(id),
    entries: () => [...byId.values()],
  };
}
