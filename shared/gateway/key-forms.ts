/**
 * Every form in which a gateway may echo the key back: as is, without its `sk-` prefix, upper
 * or lower case, and inside base64 (HTTP Basic `base64("user:sk-…")`, `base64(":sk-…")`,
 * `base64("sk-…")`, or any other text around it). Each is found whatever of its characters
 * are percent-encoded, in either case of hex, once or twice (`-` as `%2D`, `%2d`, `%252D`):
 * not only encodeURIComponent's choice. Built once per key.
 */
export interface KeyForm {
  text: string;
  /** Text forms match whatever their case; base64 is case-sensitive. */
  caseless: boolean;
  /** Finds this form (global; sticky state reset before each use). */
  pattern: RegExp;
  /**
   * The form before percent-encoding, lower-cased when caseless, where it is ASCII (else null):
   * a text with no `%` holds a match only if it holds this, which a plain search tells far
   * sooner than the pattern (a response's request id, every one).
   */
  literal: string | null;
}

export interface KeyForms {
  /** In a fixed order for a given key: an index names a form (see sealed URLs). */
  forms: readonly KeyForm[];
}

/** Shorter forms would match ordinary words. */
const MIN_FORM_LENGTH = 8;
/** The key itself is removed from this length on, as before (a 4-character key is odd, not safe). */
const MIN_KEY_LENGTH = 4;

const cache = new Map<string, KeyForms | null>();
const CACHE_SIZE = 4;

/** The forms of `key`, or null when it is too short to look for. */
export function keyForms(key: string): KeyForms | null {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const built = buildForms(key);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, built);
  return built;
}

function buildForms(key: string): KeyForms | null {
  if (key.length < MIN_KEY_LENGTH) return null;
  const forms: KeyForm[] = [];
  const seen = new Set<string>();
  // `plain`: the form before any percent-encoding, which the pattern encodes every way
  const add = (text: string, caseless: boolean, min = MIN_FORM_LENGTH, plain = text) => {
    if (text.length < min || seen.has(text)) return;
    seen.add(text);
    const literal = /^[\x20-\x7e]*$/.test(plain) ? (caseless ? plain.toLowerCase() : plain) : null;
    forms.push({ text, caseless, pattern: anyPercentEncoding(plain, caseless), literal });
  };
  const bases = [key];
  if (/^sk-/i.test(key)) bases.push(key.slice(3));
  for (const [i, base] of bases.entries()) {
    const min = i === 0 ? MIN_KEY_LENGTH : MIN_FORM_LENGTH;
    // exact case first, so a sealed URL gets the form it had back
    for (const text of [base, base.toUpperCase(), base.toLowerCase()]) add(text, true, min);
    // (encoded forms stay listed, in their place: a sealed link names its form by index)
    add(encodeURIComponent(base), true, MIN_FORM_LENGTH, base);
    for (const core of base64Cores(base)) {
      add(core, false);
      add(core.replaceAll('+', '-').replaceAll('/', '_'), false); // base64url
      add(encodeURIComponent(core), false, MIN_FORM_LENGTH, core);
    }
  }
  return forms.length === 0 ? null : { forms };
}

/**
 * The base64 characters that depend on the key's bytes alone, for each of the three places the
 * key can start at within a 3-byte group: whatever text surrounds the key (`user:`, a JSON
 * body…), its base64 holds one of these.
 */
function base64Cores(text: string): string[] {
  const bytes = new TextEncoder().encode(text);
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    // (TextEncoder and btoa: shared/ also runs in the browser, which has no Buffer)
    const shifted = new Uint8Array(shift + bytes.length);
    shifted.set(bytes, shift);
    const encoded = btoa(String.fromCharCode(...shifted));
    // character i carries bits 6i to 6i+6; the key's are 8·shift to 8·(shift + length)
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    cores.push(encoded.slice(start, end));
  }
  return cores;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const utf8 = new TextEncoder();

/**
 * Finds `plain` with any of its characters written as itself or percent-encoded (its UTF-8
 * bytes as `%XX`, hex in either case, or encoded twice as `%25XX`). `caseless`: the
 * characters themselves in any case too; base64 keeps theirs.
 */
function anyPercentEncoding(plain: string, caseless: boolean): RegExp {
  let source = '';
  for (const char of plain) {
    const encoded = [...utf8.encode(char)].map((byte) => `%(?:25)?${hexEitherCase(byte)}`);
    source += `(?:${escape(char)}|${encoded.join('')})`;
  }
  return new RegExp(source, caseless ? 'gi' : 'g');
}

function hexEitherCase(byte: number): string {
  return [...byte.toString(16).padStart(2, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * `text` as RFC 3986 compares URLs (6.2.2): percent-encoded unreserved characters decoded,
 * other escapes in upper-case hex. Two texts equal so are the same in any URL.
 */
export function normalizePercentEncoding(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (escaped, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escaped.toUpperCase();
  });
}

/**
 * Where any form of the keys occurs, as [start, end) spans, in order. Each form is looked for
 * on its own and overlaps are kept, so no part of a longer match can hide behind a shorter one.
 */
export function keySpans(
  text: string,
  keys: ReadonlyArray<KeyForms | null>,
): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const encoded = text.includes('%');
  let lower: string | undefined;
  for (const key of keys) {
    for (const { pattern, caseless, literal } of key?.forms ?? []) {
      // Without a `%`, the pattern can only match the literal (ASCII: an ASCII letter's other
      // case is ASCII, and lower-casing moves no ASCII character, so nothing is missed).
      if (!encoded && literal !== null) {
        const haystack = caseless ? (lower ??= text.toLowerCase()) : text;
        if (!haystack.includes(literal)) continue;
      }
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        spans.push([match.index, match.index + match[0].length]);
        pattern.lastIndex = match.index + 1;
      }
    }
  }
  return spans;
}

/** Overlapping or touching spans become one: one marker, not several side by side. */
export function mergeSpans(spans: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}
