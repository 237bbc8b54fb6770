import { hash } from 'node:crypto';

/** A seeded PRNG (mulberry32): same seed, same sequence, so faults and pictures are reproducible. */
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed derived from any values, for deterministic content (same inputs, same bytes). */
export function seedFrom(...parts: Array<string | number>): number {
  // One-shot hash: several times cheaper than a createHash() object, and it runs per request.
  return hash('sha256', parts.join('\u0000'), 'buffer').readUInt32BE(0);
}

/** A hex id of the given length from the generator, for request ids and task ids. */
export function randomHex(random: Random, length: number): string {
  let out = '';
  while (out.length < length)
    out += Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, length);
}
