import { z } from 'zod';
import { lazy } from '../../api/define.ts';

/** Body of /v1/images/generations in the OpenAI form (interface 2.1). */
export interface OpenAiImageBody {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  quality?: string;
  response_format?: string;
  output_format?: string;
  seed?: number;
  extra_fields?: Record<string, unknown>;
}

/** Body of /v1/{svc}/images/advanced (interface 2.1 + 2.2). */
export interface AdvancedImageBody extends Omit<OpenAiImageBody, 'extra_fields'> {
  negative_prompt?: string;
  extra?: Record<string, unknown>;
}

export interface QwenTextItem {
  text: string;
}
export interface QwenImageItem {
  image: string;
}

/** Qwen-style body of /v1/images/generations (interface 2.3). */
export interface QwenImageBody {
  model: string;
  input: { messages: Array<{ role: string; content: QwenTextItem[] }> };
  parameters?: {
    negative_prompt?: string;
    prompt_extend?: boolean;
    watermark?: boolean;
    /** `W*H`, with an asterisk. */
    size?: string;
    n?: number;
    seed?: number;
  };
}

/** Qwen-style JSON body of /v1/images/edits (interface 2.4). */
export interface QwenEditBody {
  model: string;
  input: { messages: Array<{ role: string; content: Array<QwenTextItem | QwenImageItem> }> };
  parameters?: {
    n?: number;
    negative_prompt?: string;
    prompt_extend?: boolean;
    watermark?: boolean;
    size?: string;
  };
}

/** One image of the image response (interface 2.5); url, b64_json or both. */
export const ImageDatumSchema = lazy(() =>
  z.looseObject({
    url: z.string().nullish(),
    b64_json: z.string().nullish(),
    revised_prompt: z.string().nullish(),
    /** Not in the interface: some gateways say the seed they used, per image or for all. */
    seed: z.unknown().optional(),
  }),
);

/** The image response of every image endpoint; other fields are kept (partial metadata…). */
export const ImageResponseSchema = lazy(() =>
  z.looseObject({
    created: z.number().nullish(),
    data: z.array(ImageDatumSchema.unwrap()),
  }),
);
