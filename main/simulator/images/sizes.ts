import { badRequest } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';

export interface Size {
  width: number;
  height: number;
}

/** Named sizes of the advanced entry (interface 2.2). */
export const NAMED_SIZES: Readonly<Record<string, Size>> = {
  square_hd: { width: 1024, height: 1024 },
  landscape_4_3: { width: 1024, height: 768 },
  portrait_4_3: { width: 768, height: 1024 },
  landscape_16_9: { width: 1024, height: 576 },
  portrait_16_9: { width: 576, height: 1024 },
};

/** Aspect ratios of the advanced entry, mapped to a size whose long side is 1024. */
export const ASPECT_RATIOS: Readonly<Record<string, Size>> = {
  '1:1': { width: 1024, height: 1024 },
  '16:9': { width: 1024, height: 576 },
  '9:16': { width: 576, height: 1024 },
};

const WXH = /^([1-9][0-9]{0,4})x([1-9][0-9]{0,4})$/;
const WSTARH = /^([1-9][0-9]{0,4})\*([1-9][0-9]{0,4})$/;

export const sizeText = (size: Size) => `${size.width}x${size.height}`;

/** `WxH` with a lowercase x; every near miss (×, X, *) is refused with the fix in the message. */
export function parseWxH(text: string, param = 'size'): Size {
  const match = WXH.exec(text);
  if (match) return { width: Number(match[1]), height: Number(match[2]) };
  const example = `e.g. "1024x1024"`;
  if (text.includes('×')) {
    throw badRequest(
      'invalid_size',
      `"${param}" contains the multiplication sign "×" (${JSON.stringify(text)}); write it with a lowercase x, ${example}.`,
      param,
    );
  }
  if (/^[0-9]+X[0-9]+$/.test(text)) {
    throw badRequest(
      'invalid_size',
      `"${param}" must use a lowercase x, ${example}; got ${JSON.stringify(text)}.`,
      param,
    );
  }
  if (WSTARH.test(text)) {
    throw badRequest(
      'invalid_size',
      `"${param}" must be WxH with a lowercase x, ${example}; W*H is the Qwen-style form.`,
      param,
    );
  }
  throw badRequest(
    'invalid_size',
    `"${param}" must be WxH with a lowercase x, ${example}; got ${JSON.stringify(text)}.`,
    param,
  );
}

/** Advanced entry: a named size, an aspect ratio, or `WxH`. */
export function parseAdvancedSize(text: string, param = 'size'): Size {
  const named = NAMED_SIZES[text] ?? ASPECT_RATIOS[text];
  if (named) return named;
  if (WXH.test(text) || /[x×X*]/.test(text)) return parseWxH(text, param);
  throw badRequest(
    'invalid_size',
    `"${param}" must be one of ${[...Object.keys(NAMED_SIZES), ...Object.keys(ASPECT_RATIOS)].join(', ')} or WxH with a lowercase x; got ${JSON.stringify(text)}.`,
    param,
  );
}

/** Qwen-style body: `W*H` with an asterisk. */
export function parseQwenSize(text: string, param = 'parameters.size'): Size {
  const match = WSTARH.exec(text);
  if (match) return { width: Number(match[1]), height: Number(match[2]) };
  throw badRequest(
    'invalid_size',
    `"${param}" must be W*H with an asterisk, e.g. "1328*1328"; got ${JSON.stringify(text)}.`,
    param,
  );
}

/** Checks a size against the model's list, or its side range when it takes any size. */
export function checkModelSize(
  model: ImageModelSpec,
  size: Size,
  param = 'size',
  separator = 'x',
): Size {
  const show = (s: string) => s.replace('x', separator);
  if (model.sizes === 'any') {
    const { minSide, maxSide } = model;
    const sides = [size.width, size.height];
    if (sides.every((side) => side >= minSide && side <= maxSide)) return size;
    throw badRequest(
      'invalid_size',
      `Model "${model.id}" takes sizes with each side between ${minSide} and ${maxSide} pixels; got ${show(sizeText(size))}.`,
      param,
    );
  }
  if (model.sizes.includes(sizeText(size))) return size;
  throw badRequest(
    'invalid_size',
    `Model "${model.id}" does not offer size ${show(sizeText(size))}. Supported sizes: ${model.sizes.map(show).join(', ')}.`,
    param,
  );
}

/** The output size of an edit that names none: the input's own size when the model allows it. */
export function sizeForSource(model: ImageModelSpec, width: number, height: number): Size {
  if (model.sizes === 'any') {
    const { minSide, maxSide } = model;
    const scale = Math.min(1, maxSide / Math.max(width, height));
    const fit = (side: number) => Math.min(maxSide, Math.max(minSide, Math.round(side * scale)));
    return { width: fit(width), height: fit(height) };
  }
  const own = `${width}x${height}`;
  return parseWxH(model.sizes.includes(own) ? own : model.defaultSize);
}
