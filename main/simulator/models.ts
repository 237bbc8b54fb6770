import type { TextManner } from './text/prompt-writer.ts';

/**
 * The simulator's model table: what the console of a real gateway would configure.
 * It is deliberately separate from the client's catalogue in shared/, so that tests of the
 * client run against an independent statement of the interface.
 */

export type ImageProtocol = 'openai' | 'qwen';
export type EditProtocol = 'multipart' | 'qwen-json';

export interface ImageModelSpec {
  kind: 'image';
  id: string;
  /** Body accepted on /v1/images/generations; null when the model is not offered there. */
  generations: ImageProtocol | null;
  /** Offered on /v1/svc/images/advanced. */
  advanced: boolean;
  /** Edit protocol on /v1/images/edits; null when the model cannot edit. */
  edits: EditProtocol | null;
  /** The largest picture or mask file an edit takes, in bytes (none when absent). */
  editMaxBytes?: number;
  /** Edits square pictures only. */
  editSquare?: boolean;
  /** Allowed `WxH` sizes, or 'any' for any size within [minSide, maxSide]. */
  sizes: string[] | 'any';
  minSide: number;
  maxSide: number;
  defaultSize: string;
  nMax: number;
  /** Accepted `quality` values; empty when the model takes no quality. */
  quality: string[];
  /** Whether `output_format` is accepted (otherwise images are PNG). */
  outputFormat: boolean;
  /** Whether `extra` / `extra_fields` are accepted. */
  extra: boolean;
  pricePerImage: number;
  /** Whether answers carry a rewritten `revised_prompt` (as dall-e-3 does). */
  revisedPrompt?: boolean;
}

export interface TextModelSpec {
  kind: 'text';
  id: string;
  pricePerToken: number;
  /** How it words an answer: as told, chatty (a preamble, a numbered list), or thinking aloud. */
  manner?: TextManner;
}

export interface VideoModelSpec {
  kind: 'video';
  id: string;
  seconds: string[];
  sizes: string[];
  pricePerSecond: number;
  /** Served only by the task-style POST /v1/video/generations (its model document says so). */
  taskApiOnly?: boolean;
}

export type ModelSpec = ImageModelSpec | TextModelSpec | VideoModelSpec;

const MB = 1024 * 1024;

const image = (spec: Omit<ImageModelSpec, 'kind'>): ImageModelSpec => ({ kind: 'image', ...spec });

export const DEFAULT_MODELS: ModelSpec[] = [
  image({
    id: 'gpt-image-1',
    generations: 'openai',
    advanced: false,
    edits: 'multipart',
    editMaxBytes: 50 * MB,
    sizes: ['1024x1024', '1536x1024', '1024x1536'],
    minSide: 1024,
    maxSide: 1536,
    defaultSize: '1024x1024',
    nMax: 10,
    quality: ['low', 'medium', 'high', 'auto'],
    outputFormat: true,
    extra: false,
    pricePerImage: 4000,
    revisedPrompt: true,
  }),
  image({
    id: 'dall-e-3',
    generations: 'openai',
    advanced: false,
    edits: null,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    minSide: 1024,
    maxSide: 1792,
    defaultSize: '1024x1024',
    nMax: 1,
    quality: ['standard', 'hd'],
    outputFormat: false,
    extra: false,
    pricePerImage: 4000,
    revisedPrompt: true,
  }),
  image({
    id: 'dall-e-2',
    generations: 'openai',
    advanced: false,
    edits: 'multipart',
    editMaxBytes: 4 * MB,
    editSquare: true,
    sizes: ['256x256', '512x512', '1024x1024'],
    minSide: 256,
    maxSide: 1024,
    defaultSize: '1024x1024',
    nMax: 10,
    quality: [],
    outputFormat: false,
    extra: false,
    pricePerImage: 2000,
  }),
  image({
    id: 'qwen-image',
    generations: 'qwen',
    advanced: false,
    edits: null,
    sizes: ['1328x1328', '1664x928', '928x1664', '1472x1140', '1140x1472'],
    minSide: 928,
    maxSide: 1664,
    defaultSize: '1328x1328',
    nMax: 4,
    quality: [],
    outputFormat: false,
    extra: false,
    pricePerImage: 2500,
  }),
  image({
    id: 'qwen-image-edit',
    generations: null,
    advanced: false,
    edits: 'qwen-json',
    editMaxBytes: 10 * MB,
    sizes: 'any',
    minSide: 64,
    maxSide: 2048,
    defaultSize: '1024x1024',
    nMax: 4,
    quality: [],
    outputFormat: false,
    extra: false,
    pricePerImage: 2500,
  }),
  image({
    id: 'flux-pro',
    generations: null,
    advanced: true,
    edits: null,
    sizes: 'any',
    minSide: 64,
    maxSide: 2048,
    defaultSize: '1024x768',
    nMax: 10,
    quality: [],
    outputFormat: true,
    extra: true,
    pricePerImage: 3000,
  }),
  // Cheap, any size, on every entry: what demos and benchmarks use.
  image({
    id: 'flux-schnell',
    generations: 'openai',
    advanced: true,
    edits: 'multipart',
    sizes: 'any',
    minSide: 16,
    maxSide: 2048,
    defaultSize: '512x512',
    nMax: 10,
    quality: [],
    outputFormat: true,
    extra: true,
    pricePerImage: 300,
  }),
  { kind: 'text', id: 'gpt-4o-mini', pricePerToken: 1 },
  { kind: 'text', id: 'qwen-plus', pricePerToken: 1, manner: 'chatty' },
  { kind: 'text', id: 'deepseek-r1', pricePerToken: 2, manner: 'reasoning' },
  {
    kind: 'video',
    id: 'sora-2',
    seconds: ['4', '8', '12'],
    sizes: ['720x1280', '1280x720'],
    pricePerSecond: 10000,
  },
  {
    kind: 'video',
    id: 'kling-v2',
    seconds: ['5', '10'],
    sizes: ['1280x720', '720x1280', '1024x1024'],
    pricePerSecond: 5000,
    taskApiOnly: true,
  },
];
