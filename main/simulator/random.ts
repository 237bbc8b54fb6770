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

/**
 * A 32-bit seed derived from any values, for deterministic content (same inputs, same bytes).
 * FNV-1a over the text, then MurmurHash3's finalizer to spread its bits: a seed needs
 * determinism and mixing, not a cryptographic hash, and this runs twice per image request.
 */
export function seedFrom(...parts: Array<string | number>): number {
  const text = parts.join('\u0000');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
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
