import type {
  GeneratedImage,
  ImageResult,
  PartialSuccess,
} from '../../../../shared/gateway/outcome.ts';
import { ImageResponseSchema } from '../../../../shared/gateway/wire/images.ts';

export type ImageReading =
  | { ok: true; result: ImageResult }
  | { ok: false; problem: 'empty' }
  | { ok: false; problem: 'malformed'; detail: string };

type Bag = Record<string, unknown>;
const isBag = (value: unknown): value is Bag =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads an image response (interface 2.5): url, b64_json or both per image; empty `data` is a
 * failed generation; partial-success metadata wherever it stands.
 */
export function readImageResponse(
  body: unknown,
  options: { partialKey: string; requestedN?: number | undefined },
): ImageReading {
  const parsed = ImageResponseSchema.safeParse(body);
  if (!parsed.success) {
    return { ok: false, problem: 'malformed', detail: 'it has no "data" list of images' };
  }
  const images: GeneratedImage[] = [];
  const bodySeed = seedOf(parsed.data.seed);
  parsed.data.data.forEach((datum, index) => {
    const url = datum.url || null;
    const b64Json = datum.b64_json || null;
    if (url || b64Json) {
      const seed = seedOf(datum.seed) ?? bodySeed;
      images.push({ index, url, b64Json, revisedPrompt: datum.revised_prompt || null, seed });
    }
  });
  if (images.length === 0) return { ok: false, problem: 'empty' };
  return {
    ok: true,
    result: {
      images,
      created: parsed.data.created ?? null,
      partial: partialOf(parsed.data, images.length, options),
    },
  };
}

/**
 * A seed as a gateway may say it (a number, or digits in a string), within the interface's
 * range; anything else is no seed.
 */
export function seedOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 4_294_967_295 ? n : null;
}

/**
 * The partial-success flag and counts (interface 2.5 rule 3). Their place is not fixed: the
 * counts may sit in `metadata`, under `metadata.{partialKey}`, under a top-level
 * `{partialKey}`, or beside `data`. The nearest place wins.
 */
export function partialOf(
  body: Bag,
  returned: number,
  options: { partialKey: string; requestedN?: number | undefined },
): PartialSuccess | null {
  const metadata = isBag(body.metadata) ? body.metadata : {};
  const flag = metadata[options.partialKey] ?? body[options.partialKey];
  const places = [flag, metadata, body].filter(isBag);
  const count = (name: string): number | null => {
    for (const place of places) {
      const value = place[name];
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
      if (Array.isArray(value) && name === 'failed_requests') return value.length;
    }
    return null;
  };
  const requestedN = count('requested_n') ?? options.requestedN ?? null;
  const returnedN = count('returned_n') ?? returned;
  const flagged = flag === true || isBag(flag) || flag === 'true';
  const short = requestedN !== null && returnedN < requestedN;
  if (!flagged && !short) return null;
  const raw: Bag = {};
  for (const place of [...places].reverse()) {
    for (const name of ['requested_n', 'returned_n', 'failed_requests']) {
      if (name in place) raw[name] = place[name];
    }
  }
  if (flag !== undefined) raw[options.partialKey] = flag;
  return {
    requestedN,
    returnedN,
    failedRequests:
      count('failed_requests') ?? (requestedN !== null ? requestedN - returnedN : null),
    raw,
  };
}
