import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';

/** A prompt file's bytes that are not text: the line where it happened, and what to do. */
export class PromptTextError extends Error {
  readonly line: number;
  /** not-text: no text file at all; encoding: text, but not in UTF-8 or UTF-16. */
  readonly code: 'not-text' | 'encoding';
  constructor(line: number, message: string, code: 'not-text' | 'encoding' = 'encoding') {
    super(message);
    this.line = line;
    this.code = code;
  }
}

export const INVALID_UTF8 =
  'not valid UTF-8 text: save the file as UTF-8 (in most editors, "Save as" with the ' +
  'encoding UTF-8) and try again';

/** The first bytes of files often given by mistake, none of them text. */
const NOT_TEXT_SIGNATURES: ReadonlyArray<{ bytes: number[]; at?: number; what: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x57, 0x45, 0x42, 0x50], at: 8, what: 'a WebP image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive (or an Office document)' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0x66, 0x74, 0x79, 0x70], at: 4, what: 'a video' },
];

/** Control bytes past this share of the first bytes: binary data. */
const BINARY_SHARE = 0.1;

/**
 * Why the first bytes of a file are no text at all (a picture renamed .txt), or null: a known
 * kind of file by its signature, or (`utf8`: read as UTF-8, where text has almost no control
 * bytes; UTF-16 has a NUL in every other byte) binary data. A file that is text in another
 * encoding is not this: that is said line by line as an encoding problem.
 */
export function notTextProblem(head: Buffer, utf8: boolean): string | null {
  for (const { bytes, at = 0, what } of NOT_TEXT_SIGNATURES) {
    if (head.length >= at + bytes.length && bytes.every((byte, i) => head[at + i] === byte)) {
      return notText(`it looks like ${what}`);
    }
  }
  if (!utf8) return null;
  const sample = head.subarray(0, SNIFF_BYTES);
  let control = 0;
  for (const byte of sample) if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) control++;
  return sample.length >= 16 && control > sample.length * BINARY_SHARE
    ? notText('it holds binary data')
    : null;
}

/** Tab, LF, FF, CR and ESC: control bytes that text files do hold. */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

const notText = (why: string) =>
  `not a text file (${why}): a prompt file is text, one prompt a line (.txt), or a CSV or ` +
  'JSONL file of prompts';
export const NUL_BYTE =
  'holds a NUL byte (\\0), which no prompt may contain; a file saved as UTF-16 ("Unicode") ' +
  'without a byte-order mark looks like this: save it as UTF-8';
const INVALID_UTF16 = 'not valid UTF-16 text (a broken surrogate pair): save the file as UTF-8';

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

/** Bytes looked at to tell the encoding when the file has no byte-order mark. */
const SNIFF_BYTES = 512;

/**
 * The encoding a file's first bytes declare (a byte-order mark) or make evident: UTF-16
 * without a mark has a NUL in every other byte for the Latin letters of most prompts. Zeros
 * at the odd offsets of at least half the code units (and almost never at the even ones)
 * mean little-endian; the reverse, big-endian. Anything else is read as UTF-8.
 */
export function sniffEncoding(head: Buffer): { encoding: Encoding; bomBytes: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { encoding: 'utf8', bomBytes: 3 };
  }
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', bomBytes: 2 };
  const units = Math.floor(Math.min(head.length, SNIFF_BYTES) / 2);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < units; i++) {
    if (head[2 * i] === 0) evenZeros++;
    if (head[2 * i + 1] === 0) oddZeros++;
  }
  if (units > 0 && oddZeros >= units / 2 && evenZeros <= units / 10) {
    return { encoding: 'utf16le', bomBytes: 0 };
  }
  if (units > 0 && evenZeros >= units / 2 && oddZeros <= units / 10) {
    return { encoding: 'utf16be', bomBytes: 0 };
  }
  return { encoding: 'utf8', bomBytes: 0 };
}

const LF = 0x0a;

/**
 * Turns a prompt file's bytes, as they stream in, into checked UTF-8 without a byte-order
 * mark: UTF-16 (LE or BE, by its mark or evident) is decoded, invalid UTF-8 and NUL bytes are
 * refused with a PromptTextError naming the line. Only complete lines are passed on, each
 * chunk checked in one native call; a bad chunk is then searched line by line for the line.
 */
export function promptText(): Transform {
  let encoding: Encoding | null = null;
  let head: Buffer = Buffer.alloc(0);
  /** Bytes of an incomplete line (UTF-8) or an odd trailing byte (UTF-16). */
  let pending: Buffer = Buffer.alloc(0);
  /** A high surrogate ending the last UTF-16 chunk, waiting for its pair. */
  let pendingUnit = '';
  /** Lines passed on so far: the next one is line + 1. */
  let line = 0;

  /** Checks complete UTF-8 lines (ending with LF, or the file's last) and passes them on. */
  const passUtf8 = (stream: Transform, bytes: Buffer): void => {
    if (bytes.length === 0) return;
    if (bytes.includes(0) || !isUtf8(bytes)) throw findBadUtf8Line(bytes, line);
    line += countLf(bytes);
    stream.push(bytes);
  };

  const takeUtf8 = (stream: Transform, chunk: Buffer, final: boolean): void => {
    const bytes = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    const end = final ? bytes.length : bytes.lastIndexOf(LF) + 1;
    pending = bytes.subarray(end);
    passUtf8(stream, bytes.subarray(0, end));
  };

  const takeUtf16 = (stream: Transform, chunk: Buffer, final: boolean): void => {
    let bytes = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 2);
    if (final && whole !== bytes.length) {
      throw new PromptTextError(line + 1 + countLf16(bytes), INVALID_UTF16);
    }
    pending = Buffer.from(bytes.subarray(whole));
    bytes = bytes.subarray(0, whole);
    // swap16 works in place: never on the caller's chunk
    const units = encoding === 'utf16be' ? Buffer.from(bytes).swap16() : bytes;
    let text = pendingUnit + units.toString('utf16le');
    pendingUnit = '';
    const last = text.charCodeAt(text.length - 1);
    if (!final && last >= 0xd800 && last <= 0xdbff) {
      pendingUnit = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text.length === 0) return;
    if (text.includes('\0') || !text.isWellFormed()) {
      throw findBadUtf16Line(text, line);
    }
    line += countLfText(text);
    stream.push(Buffer.from(text, 'utf8'));
  };

  const take = (stream: Transform, chunk: Buffer, final: boolean): void => {
    if (encoding === null) {
      head = head.length > 0 ? Buffer.concat([head, chunk]) : chunk;
      // a mark needs 3 bytes; the first chunk read is a fair sample (64 KB, or the whole file)
      if (!final && head.length < 4) return;
      const sniffed = sniffEncoding(head);
      const binary = notTextProblem(head, sniffed.encoding === 'utf8');
      if (binary) throw new PromptTextError(1, binary, 'not-text');
      encoding = sniffed.encoding;
      chunk = head.subarray(sniffed.bomBytes);
      head = Buffer.alloc(0);
    }
    if (encoding === 'utf8') takeUtf8(stream, chunk, final);
    else takeUtf16(stream, chunk, final);
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      try {
        take(this, chunk, false);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        take(this, Buffer.alloc(0), true);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

function countLf(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
  return count;
}

function countLfText(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function countLf16(bytes: Buffer): number {
  return countLfText(bytes.subarray(0, bytes.length - (bytes.length % 2)).toString('utf16le'));
}

/** The first line of `bytes` (after `before` lines) with a NUL or invalid UTF-8. */
function findBadUtf8Line(bytes: Buffer, before: number): PromptTextError {
  let start = 0;
  let line = before + 1;
  for (;;) {
    const lf = bytes.indexOf(LF, start);
    const end = lf === -1 ? bytes.length : lf + 1;
    const one = bytes.subarray(start, end);
    if (one.includes(0)) return new PromptTextError(line, NUL_BYTE);
    if (!isUtf8(one)) return new PromptTextError(line, INVALID_UTF8);
    if (lf === -1) return new PromptTextError(line, INVALID_UTF8); // (not reached: checked whole)
    start = end;
    line++;
  }
}

/** The first line of `text` (after `before` lines) with a NUL or a lone surrogate. */
function findBadUtf16Line(text: string, before: number): PromptTextError {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const one = lines[i]!;
    if (one.includes('\0')) return new PromptTextError(before + 1 + i, NUL_BYTE);
    if (!one.isWellFormed()) return new PromptTextError(before + 1 + i, INVALID_UTF16);
  }
  return new PromptTextError(before + 1, INVALID_UTF16);
}
