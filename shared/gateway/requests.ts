import { z } from 'zod';

/**
 * What the engine asks the gateway client for, in the names a person writes in a batch sheet.
 * Types are loose on purpose (any number, any string): the client's validation gives each
 * mistake a message a person understands, which a schema error would not.
 */
export const ImageRequestSchema = z.object({
  model: z.string().min(1, 'Choose a model.'),
  prompt: z.string(),
  size: z.string().optional(),
  n: z.number().optional(),
  seed: z.number().optional(),
  quality: z.string().optional(),
  output_format: z.string().optional(),
  negative_prompt: z.string().optional(),
  response_format: z.string().optional(),
  /** Qwen-style switches (2.3). */
  prompt_extend: z.boolean().optional(),
  watermark: z.boolean().optional(),
  /** Vendor-private fields for models that take them (advanced entry `extra`). */
  extra: z.record(z.string(), z.unknown()).optional(),
  /** Accepted here only to be refused with a clear message (the advanced entry blocks them). */
  image_urls: z.array(z.string()).optional(),
  webhook: z.string().optional(),
});
export type ImageRequest = z.infer<typeof ImageRequestSchema>;

/** A picture to edit: file bytes (multipart) or a link (Qwen JSON edits). */
export type ImageSource =
  { bytes: Uint8Array; filename: string; mimeType: string } | { url: string };

export interface EditRequest extends Omit<ImageRequest, 'image_urls' | 'webhook'> {
  /** The picture to edit, or several for a model that combines them. */
  image: ImageSource | readonly ImageSource[];
  /** Transparent where the picture may change; the size of the (first) picture. */
  mask?: ImageSource;
}

/** The pictures of an edit request as a list, however many it has. */
export function editImages(request: Pick<EditRequest, 'image'>): readonly ImageSource[] {
  return Array.isArray(request.image) ? request.image : [request.image as ImageSource];
}

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Other body fields passed through as given (temperature, max_tokens…). */
  extra?: Record<string, unknown>;
}

export interface ResponsesRequest {
  model: string;
  input: string | unknown[];
  extra?: Record<string, unknown>;
}

export interface VideoRequest {
  model: string;
  prompt: string;
  seconds?: string;
  size?: string;
  extra?: Record<string, unknown>;
}
