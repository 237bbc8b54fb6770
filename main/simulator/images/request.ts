import type { Size } from './sizes.ts';

export type ImageFormat = 'png' | 'jpeg' | 'webp';
export type ResponseFormat = 'url' | 'b64_json';

export const IMAGE_FORMATS: readonly ImageFormat[] = ['png', 'jpeg', 'webp'];
export const RESPONSE_FORMATS: readonly ResponseFormat[] = ['url', 'b64_json'];

/** One validated image request, whatever body style it came in. */
export interface ImageRequest {
  prompt: string;
  n: number;
  size: Size;
  format: ImageFormat;
  responseFormat: ResponseFormat;
  /** null: the gateway draws one. */
  seed: number | null;
  /** Other settings that change the picture (quality, negative prompt, extras), as one string. */
  detail: string;
  /** Qwen `watermark`: a mark in the corner of the picture. */
  watermark: boolean;
  /** Whether the answer carries a rewritten `revised_prompt`. */
  revisePrompt: boolean;
}

/** JSON with sorted keys, so equal settings give equal strings (and equal pictures). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
