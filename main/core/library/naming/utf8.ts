// any UTF-16 code unit above ASCII (no u flag: surrogates count one by one)
const NON_ASCII = /[\u0080-\uffff]/;

/** Plain ASCII: its own NFC, a byte a character, and a grapheme a character but for CR LF. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

// made on first use: loading ICU's grapheme rules costs ~8 ms of CPU, and ASCII needs none
let graphemes: Intl.Segmenter | undefined;

/** At most maxBytes of UTF-8, cut between graphemes (never inside an emoji or accent). */
export function truncateUtf8(text: string, maxBytes: number): string {
  // a UTF-16 code unit is at most 3 bytes: a short text needs no counting
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return text;
  let head = text;
  if (maxBytes >= 0) {
    // Only the first maxBytes + 1 code units can be kept (each is at least a byte). A grapheme
    // boundary depends only on the text before it and the code point after it, so segmenting
    // that head (whole code points) cuts where segmenting all of a long text would.
    const end = Math.floor(maxBytes) + 1;
    if (end < text.length) {
      const pair =
        isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end));
      head = text.slice(0, pair ? end + 1 : end);
    }
    if (isAscii(head)) {
      // ASCII: a byte and a grapheme a character, but for CR LF, one grapheme never split
      let cut = Math.floor(maxBytes);
      if (cut > 0 && head.charCodeAt(cut - 1) === 0x0d && head.charCodeAt(cut) === 0x0a) cut--;
      return head.slice(0, cut);
    }
  }
  let out = '';
  let bytes = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(head)) {
    const size = utf8Length(segment);
    if (bytes + size > maxBytes) break;
    out += segment;
    bytes += size;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
