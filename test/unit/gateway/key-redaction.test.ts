import { describe, expect, it } from 'vitest';
import { keyForms, keySpans, type KeyForms } from '../../../shared/gateway/key-forms.ts';
import { REDACTED, redact } from '../../../shared/gateway/redact.ts';
import {
  holdsSealedKey,
  sealKeyInUrl,
  unsealKeyInUrl,
  withoutCredentials,
} from '../../../shared/gateway/sealed-url.ts';

const KEY = 'sk-Hostile+Key/7f3a9c1e=5b2d4f6a8c0e';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const hex = (char: string) => char.charCodeAt(0).toString(16).padStart(2, '0');

/** Every form a hostile gateway echoes the key in. */
const ECHOES: Array<[string, string]> = [
  ['as is', KEY],
  ['without its sk- prefix', KEY.slice(3)],
  ['upper-cased', KEY.toUpperCase()],
  ['lower-cased', KEY.toLowerCase()],
  ['URL-encoded', encodeURIComponent(KEY)],
  ['URL-encoded without prefix', encodeURIComponent(KEY.slice(3))],
  ['with its hyphen as %2D', KEY.replace('-', '%2D')],
  ['with its hyphen as %2d', KEY.replace('-', '%2d')],
  ['every character percent-encoded', [...KEY].map((c) => `%${hex(c)}`).join('')],
  [
    'every character percent-encoded, upper hex',
    [...KEY].map((c) => `%${hex(c).toUpperCase()}`).join(''),
  ],
  ['encoded twice', encodeURIComponent(KEY.replace('-', '%2D'))],
  ['without prefix, letters percent-encoded', KEY.slice(3).replace(/[a-z]/g, (c) => `%${hex(c)}`)],
  ['in base64, percent-encoded', [...b64(KEY)].map((c) => `%${hex(c)}`).join('')],
  ['in base64', b64(KEY)],
  ['in base64 after a colon', b64(`:${KEY}`)],
  ['in HTTP Basic form', `Basic ${b64(`user:${KEY}`)}`],
  ['in base64url', b64url(`user:${KEY}`)],
  ['in base64 inside JSON', b64(JSON.stringify({ token: KEY }))],
  ['in base64, URL-encoded', encodeURIComponent(b64(`ab:${KEY}`))],
  ['without prefix, in base64', b64(KEY.slice(3))],
];

/**
 * Whether 8 characters in a row of the key can be read from `text`: as they are (any case),
 * URL-decoded, or decoded from a base64 run at any of its four offsets.
 */
function leaksKey(text: string): boolean {
  const pieces = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));
  const readable = [text];
  for (let once = text, times = 0; times < 2; times++) {
    try {
      once = decodeURIComponent(once);
      readable.push(once);
    } catch {
      break; // not URL-encoded
    }
  }
  for (const decoded of [...readable]) {
    for (const run of decoded.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
      for (let skip = 0; skip < 4; skip++) {
        const chars = run.slice(skip).replaceAll('-', '+').replaceAll('_', '/');
        readable.push(
          Buffer.from(chars.slice(0, chars.length - (chars.length % 4)), 'base64').toString(
            'latin1',
          ),
        );
      }
    }
  }
  return readable.some((t) =>
    pieces.some((piece) => t.toLowerCase().includes(piece.toLowerCase())),
  );
}

describe('redact: the key in any form', () => {
  it.each(ECHOES)('removes the key %s', (_, echoed) => {
    // (the check itself finds the echo)
    expect(leaksKey(echoed)).toBe(true);
    const out = redact(`the gateway said ${echoed} back`, KEY);
    expect(out).toContain(REDACTED);
    expect(out.startsWith('the gateway said ')).toBe(true);
    expect(out.endsWith(' back')).toBe(true);
    expect(leaksKey(out)).toBe(false);
  });

  it('merges overlapping and touching finds into one marker', () => {
    // the key, its prefix-less form inside it, its upper case right after, its base64 after that
    const text = `x ${KEY}${KEY.toUpperCase()}${b64(KEY)} y`;
    expect(redact(text, KEY)).toBe(`x ${REDACTED} y`);
    expect(redact(`Bearer ${KEY}`, KEY)).toBe(`Bearer ${REDACTED}`);
  });

  it('finds with its quick search for texts without % exactly what its patterns find', () => {
    const forms = keyForms(KEY)!;
    // the same forms with no literal: every text goes through the patterns alone
    const patternsOnly: KeyForms = { forms: forms.forms.map((f) => ({ ...f, literal: null })) };
    expect(forms.forms.every((form) => form.literal !== null)).toBe(true);
    const texts = [
      ...ECHOES.map(([, echoed]) => `id ${echoed}!`),
      'req_01HZX4K7Q9',
      `İ${KEY.toUpperCase()}K\u212A${KEY.slice(3).toLowerCase()}ß`,
      `${KEY.slice(0, 9)}ſ${KEY.slice(9)}`, // (ſ upper-cases to S: no match either way)
      b64(`İ:${KEY}`),
      `\u{1F600}${KEY}\u{1F600}`,
    ];
    for (const text of texts) {
      expect(keySpans(text, [forms]), text).toEqual(keySpans(text, [patternsOnly]));
    }
    // a key that is not ASCII is only ever looked for with its patterns
    expect(keyForms('sk-ключ-секрет-42')!.forms.some((form) => form.literal === null)).toBe(true);
  });

  it('leaves ordinary text alone, and short keys are not looked for in other forms', () => {
    expect(redact('nothing secret here', KEY)).toBe('nothing secret here');
    // a 4-character key is removed as is, but its prefix-less "ab" would match words
    expect(redact('sk-ab and ab and SK-AB', 'sk-ab')).toBe(`${REDACTED} and ab and ${REDACTED}`);
  });
});

describe('sealed URLs: a link that carries the key is stored without it', () => {
  it.each([
    ['a raw key in the query', `https://cdn.example/f/1.png?token=${KEY}&x=1`],
    ['a URL-encoded key', `https://cdn.example/f/1.png?token=${encodeURIComponent(KEY)}`],
    ['an upper-cased key', `https://cdn.example/f/1.png?t=${KEY.toUpperCase()}`],
    ['a Basic token', `https://cdn.example/f/1.png?auth=${encodeURIComponent(b64(`u:${KEY}`))}`],
    ['the key in the path', `https://cdn.example/${KEY.slice(3)}/1.png`],
  ])('%s: sealed with a placeholder, unsealed to the very same link', (_, url) => {
    const sealed = sealKeyInUrl(url, KEY);
    expect(holdsSealedKey(sealed)).toBe(true);
    expect(redact(sealed, KEY)).toBe(sealed);
    expect(sealed.startsWith('https://cdn.example/')).toBe(true);
    expect(unsealKeyInUrl(sealed, KEY)).toBe(url);
  });

  it('a key written another way in a link (hyphen as %2D): sealed, and put back as the same link', () => {
    const url = `https://cdn.example/f/1.png?token=${KEY.replace('-', '%2D')}`;
    const sealed = sealKeyInUrl(url, KEY);
    expect(sealed).toMatch(
      /^https:\/\/cdn\.example\/f\/1\.png\?token=\(atelier-key:0:[0-9a-f]{8}\)$/,
    );
    expect(leaksKey(sealed)).toBe(false);
    // `-` and `%2D` name the same link (RFC 3986 6.2.2)
    expect(unsealKeyInUrl(sealed, KEY)).toBe(`https://cdn.example/f/1.png?token=${KEY}`);
  });

  it('never fills a placeholder the link brought itself, on any host', () => {
    for (const planted of [
      'https://elsewhere.example/steal?sig=(atelier-key:0)',
      'https://elsewhere.example/steal?sig=(ATELIER-KEY:0)',
      // even one tagged for its own origin, as Atelier would write it
      sealKeyInUrl(`https://elsewhere.example/steal?sig=${KEY}`, KEY),
    ]) {
      const stored = sealKeyInUrl(planted.replace(KEY, ''), KEY);
      expect(stored).not.toContain('(atelier-key:');
      expect(holdsSealedKey(stored)).toBe(false);
      expect(leaksKey(unsealKeyInUrl(stored, KEY))).toBe(false);
    }
    const tagged = sealKeyInUrl(`https://elsewhere.example/steal?sig=${KEY}`, KEY);
    const forged = sealKeyInUrl(tagged, KEY); // the gateway hands back a sealed link as its own
    expect(forged).toContain('%28atelier-key:0:');
    expect(unsealKeyInUrl(forged, KEY)).toBe(forged);
  });

  it('puts the key back only into a link on the origin where it was seen', () => {
    const sealed = sealKeyInUrl(`https://cdn.example/f/1.png?token=${KEY}`, KEY);
    const placeholder = /\(atelier-key:\d+:[0-9a-f]{8}\)/.exec(sealed)![0];
    for (const other of [
      `https://elsewhere.example/f/1.png?token=${placeholder}`,
      `http://cdn.example/f/1.png?token=${placeholder}`, // another scheme
      `https://cdn.example:8443/f/1.png?token=${placeholder}`, // another port
    ]) {
      expect(unsealKeyInUrl(other, KEY), other).toBe(other);
    }
    expect(unsealKeyInUrl(sealed, KEY)).toBe(`https://cdn.example/f/1.png?token=${KEY}`);
  });

  it('leaves a link without the key as it is, and drops credentials before the host', () => {
    const plain = 'https://cdn.example/f/1.png?sig=abc&exp=9';
    expect(sealKeyInUrl(plain, KEY)).toBe(plain);
    expect(holdsSealedKey(plain)).toBe(false);
    expect(sealKeyInUrl(`https://user:pass@cdn.example/a.png`, KEY)).toBe(
      'https://cdn.example/a.png',
    );
    expect(sealKeyInUrl(`https://u:${encodeURIComponent(KEY)}@cdn.example/a.png`, KEY)).toBe(
      'https://cdn.example/a.png',
    );
  });

  it('withoutCredentials removes user:password@ (the key in --gateway) and nothing else', () => {
    expect(withoutCredentials(`https://user:${encodeURIComponent(KEY)}@gw.example:8443/v1`)).toBe(
      'https://gw.example:8443/v1',
    );
    expect(withoutCredentials(`http://${encodeURIComponent(KEY.slice(3))}@127.0.0.1:80`)).toBe(
      'http://127.0.0.1:80',
    );
    expect(withoutCredentials(`user:${encodeURIComponent(KEY)}@gw.example`)).toBe('gw.example');
    expect(withoutCredentials('https://gw.example/path@v1?q=a@b')).toBe(
      'https://gw.example/path@v1?q=a@b',
    );
    expect(withoutCredentials('https://gw.example')).toBe('https://gw.example');
  });
});
