import { crc32 } from 'node:zlib';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Literal/length symbols used: the 256 byte values and end-of-block (no LZ77 matches). */
const SYMBOLS = 257;
const END_OF_BLOCK = 256;
const MAX_CODE_BITS = 15;
/** The order in which deflate lists the code-length code's lengths (RFC 1951, 3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
/** Bytes before the IDAT data: signature (8), IHDR chunk (25), IDAT length and type (8). */
const DATA_OFFSET = 8 + 25 + 8;
/**
 * Bytes (whole pixels) between reductions of Adler-32, so that its sums fit in an int32: from
 * 65520 each, over a row's filter byte and a chunk, b stays below 65520 · 3074 + 255 · 3073 ·
 * 3074 / 2 < 2^31.
 */
const CHUNK = 3072;

/**
 * A minimal PNG encoder for raw RGB, for small pictures (a sharp call's fixed cost dominates at,
 * say, 64x64). It does not call zlib: it filters each row with "Sub" (each byte minus its left
 * neighbour) and deflates the result in the same pass as one block of literals under a fixed,
 * precomputed Huffman code. The painted pictures are smooth, so the filtered bytes are mostly
 * small differences, and a code that favours them compresses as well as zlib's Huffman-only
 * mode, at a fraction of its cost (a zlib call's set-up alone costs more than this whole
 * encode), which counts at thousands of pictures per second. Any RGB input stays lossless.
 */
export function encodePng(raw: Buffer, width: number, height: number): Buffer {
  const stride = width * 3;
  const { table, header, headerBits, headerCount, endEntry } = code;
  // Worst case: every byte gets the longest code; the bit writer also stores a little past `o`.
  const bound =
    DATA_OFFSET + 2 + header.length + 8 + Math.ceil(((stride + 1) * height + 1) * 2) + 32;
  if (scratch.length < bound) scratch = new Uint8Array(bound);
  const out = scratch;

  let o = DATA_OFFSET;
  out[o++] = 0x78; // zlib header: deflate, 32K window…
  out[o++] = 0x01; // …no dictionary, check bits
  out.set(header, o);
  o += header.length;

  const state: RowState = { o, bits: headerBits, count: headerCount, a: 1, b: 0 };
  for (let y = 0; y < height; y++) deflateRow(raw, y * stride, stride, out, table, state);
  ({ o } = state);
  let { bits, count } = state;
  const { a, b } = state;
  bits |= (endEntry & 0xffff) << count;
  count += endEntry >>> 16;
  while (count > 0) {
    out[o++] = bits & 0xff;
    bits >>>= 8;
    count -= 8;
  }
  writeUInt32(out, o, ((b << 16) | a) >>> 0);
  o += 4;

  // IDAT's length and type, then CRC; the signature and IHDR before it; IEND after it.
  writeUInt32(out, DATA_OFFSET - 8, o - DATA_OFFSET);
  writeType(out, DATA_OFFSET - 4, 'IDAT');
  writeUInt32(out, o, crc32(out.subarray(DATA_OFFSET - 4, o)));
  o += 4;
  out.set(SIGNATURE, 0);
  writeUInt32(out, 8, 13);
  writeType(out, 12, 'IHDR');
  writeUInt32(out, 16, width);
  writeUInt32(out, 20, height);
  out.set([8, 2, 0, 0, 0], 24); // bit depth 8, colour type RGB, compression, filter, no interlace
  writeUInt32(out, 29, crc32(out.subarray(12, 29)));
  writeUInt32(out, o, 0);
  writeType(out, o + 4, 'IEND');
  writeUInt32(out, o + 8, crc32(out.subarray(o + 4, o + 8)));
  o += 12;
  // The scratch buffer is reused; the picture gets its own copy of the exact size.
  return Buffer.copyBytesFrom(out, 0, o);
}

/** Where the bit writer is between rows: `bits` holds `count` (< 8) pending bits. */
interface RowState {
  o: number;
  bits: number;
  count: number;
  /** Adler-32 sums. */
  a: number;
  b: number;
}

/**
 * Filters one row with "Sub" and writes its codes. A function per row rather than one loop over
 * the picture: V8 then optimizes it as a whole, where a single long loop ran as on-stack-replaced
 * code that deoptimized at its end on every call.
 *
 * This runs once per byte, so the bit writer is inlined and has no branch of its own: after a
 * code it stores every byte that may have completed and moves on by those that did; a partial
 * byte is stored again, completed, later. A smooth picture's pixel mostly has three codes of 2–8
 * bits, short enough to be written together. The adds are `| 0`, int32 adds with no overflow
 * check: none can overflow, as Adler-32 is reduced after every CHUNK bytes.
 */
function deflateRow(
  raw: Uint8Array,
  from: number,
  stride: number,
  out: Uint8Array,
  table: Int32Array,
  state: RowState,
): void {
  let { o, bits, count, a, b } = state;
  // The row's filter type byte: 1, "Sub".
  const e = table[1]!;
  a += 1;
  b += a;
  bits |= (e & 0xffff) << count;
  count += e >>> 16;
  out[o] = bits;
  out[o + 1] = bits >>> 8;
  o += count >>> 3;
  bits >>>= count & 0x18;
  count &= 7;
  // The left neighbour, per channel: "Sub" takes it as 0 for the first pixel.
  let r = 0;
  let g = 0;
  let bl = 0;
  for (let chunk = from, rowEnd = from + stride; chunk < rowEnd; chunk += CHUNK) {
    for (let i = chunk, end = Math.min(rowEnd, chunk + CHUNK); i < end; i += 3) {
      const r1 = raw[i]!;
      const g1 = raw[i + 1]!;
      const b1 = raw[i + 2]!;
      const s0 = (r1 - r) & 0xff;
      const s1 = (g1 - g) & 0xff;
      const s2 = (b1 - bl) & 0xff;
      r = r1;
      g = g1;
      bl = b1;
      // Adler-32 over the three bytes at once: b gains a after each of them.
      b = (b + 3 * a + 3 * s0 + 2 * s1 + s2) | 0;
      a = (a + s0 + s1 + s2) | 0;
      const e0 = table[s0]!;
      const e1 = table[s1]!;
      const e2 = table[s2]!;
      const l0 = e0 >>> 16;
      const l1 = e1 >>> 16;
      const l2 = e2 >>> 16;
      if (l0 + l1 + l2 <= 24) {
        // With the pending bits (< 8), at most 31: at most 3 bytes complete.
        bits |= (e0 & 0xffff) << count;
        count = (count + l0) | 0;
        bits |= (e1 & 0xffff) << count;
        count = (count + l1) | 0;
        bits |= (e2 & 0xffff) << count;
        count = (count + l2) | 0;
        out[o] = bits;
        out[o + 1] = bits >>> 8;
        out[o + 2] = bits >>> 16;
        o = (o + (count >>> 3)) | 0;
        bits >>>= count & 0x18;
        count &= 7;
      } else {
        // One code at a time: at most 7 + 15 bits, so at most 2 bytes complete.
        bits |= (e0 & 0xffff) << count;
        count = (count + l0) | 0;
        out[o] = bits;
        out[o + 1] = bits >>> 8;
        o = (o + (count >>> 3)) | 0;
        bits >>>= count & 0x18;
        count &= 7;
        bits |= (e1 & 0xffff) << count;
        count = (count + l1) | 0;
        out[o] = bits;
        out[o + 1] = bits >>> 8;
        o = (o + (count >>> 3)) | 0;
        bits >>>= count & 0x18;
        count &= 7;
        bits |= (e2 & 0xffff) << count;
        count = (count + l2) | 0;
        out[o] = bits;
        out[o + 1] = bits >>> 8;
        o = (o + (count >>> 3)) | 0;
        bits >>>= count & 0x18;
        count &= 7;
      }
    }
    a %= 65521;
    b %= 65521;
  }
  state.o = o;
  state.bits = bits;
  state.count = count;
  state.a = a;
  state.b = b;
}

/** Reused between calls (encoding is synchronous): most of it is never touched. */
let scratch = new Uint8Array(0);

function writeUInt32(out: Uint8Array, at: number, value: number): void {
  out[at] = value >>> 24;
  out[at + 1] = (value >>> 16) & 0xff;
  out[at + 2] = (value >>> 8) & 0xff;
  out[at + 3] = value & 0xff;
}

function writeType(out: Uint8Array, at: number, type: string): void {
  for (let i = 0; i < 4; i++) out[at + i] = type.charCodeAt(i);
}

/**
 * The fixed code and its deflate block header. Weights follow the filtered bytes of a smooth
 * picture: a difference d (as a signed byte) is about half as likely as d ∓ 1, so small
 * differences get 2–4 bits. Every symbol keeps a code, so any input can be encoded.
 */
const code = (() => {
  const weights = new Uint32Array(SYMBOLS);
  for (let v = 0; v < 256; v++) {
    const difference = v < 128 ? v : 256 - v;
    weights[v] = Math.max(1, Math.round(2 ** (24 - difference)));
  }
  weights[END_OF_BLOCK] = 1;
  const lengths = huffmanLengths(weights, MAX_CODE_BITS);
  const codes = canonicalCodes(lengths);

  // Header: BFINAL, BTYPE (dynamic), HLIT, HDIST, HCLEN, then the code-length code (symbols
  // 0..15 at 4 bits each; no run-length symbols), then each symbol's length in that code.
  const fields = [1, 1, 2, 2, SYMBOLS - 257, 5, 2 - 1, 5, 19 - 4, 4];
  for (const symbol of CODE_LENGTH_ORDER) fields.push(symbol < 16 ? 4 : 0, 3);
  for (let s = 0; s < SYMBOLS; s++) fields.push(reverseBits(lengths[s]!, 4), 4);
  // Two distance codes of one bit: never used, but a complete code is the safest to decode.
  fields.push(reverseBits(1, 4), 4, reverseBits(1, 4), 4);
  const bytes: number[] = [];
  let bits = 0;
  let count = 0;
  for (let f = 0; f < fields.length; f += 2) {
    bits |= fields[f]! << count;
    count += fields[f + 1]!;
    while (count >= 8) {
      bytes.push(bits & 0xff);
      bits >>>= 8;
      count -= 8;
    }
  }
  // Each symbol's code and its length in one entry: one load per byte instead of two.
  const table = new Int32Array(SYMBOLS);
  for (let s = 0; s < SYMBOLS; s++) table[s] = codes[s]! | (lengths[s]! << 16);
  return {
    table,
    header: Uint8Array.from(bytes),
    headerBits: bits,
    headerCount: count,
    endEntry: table[END_OF_BLOCK]!,
  };
})();

/**
 * Huffman code lengths for the weights, none longer than `maxBits`; unused symbols get 0. Needs
 * at least two used symbols. When the tree is too deep the weights are flattened and it is
 * built again.
 */
export function huffmanLengths(weights: Uint32Array, maxBits: number): Uint8Array {
  for (;;) {
    const lengths = treeLengths(weights);
    if (lengths.every((length) => length <= maxBits)) return lengths;
    weights = weights.map((w) => (w === 0 ? 0 : (w >>> 1) | 1));
  }
}

/** Depth of each leaf in a Huffman tree built with two queues (sorted leaves, merged nodes). */
function treeLengths(weights: Uint32Array): Uint8Array {
  const leaves: number[] = [];
  for (let s = 0; s < weights.length; s++) if (weights[s]! > 0) leaves.push(s);
  leaves.sort((x, y) => weights[x]! - weights[y]! || x - y);
  const n = leaves.length;
  // Nodes 0..n-1 are the leaves in order; n.. are merged nodes, created by rising weight.
  const weight = new Float64Array(2 * n);
  const parent = new Int32Array(2 * n);
  for (let i = 0; i < n; i++) weight[i] = weights[leaves[i]!]!;
  let leaf = 0;
  let merged = n;
  let next = n;
  const takeLightest = () =>
    leaf < n && (merged >= next || weight[leaf]! <= weight[merged]!) ? leaf++ : merged++;
  while (next < 2 * n - 1) {
    const first = takeLightest();
    const second = takeLightest();
    weight[next] = weight[first]! + weight[second]!;
    parent[first] = next;
    parent[second] = next;
    next++;
  }
  // Depths from the root (the last node) down: a parent always comes after its children.
  const depth = new Uint8Array(2 * n);
  for (let i = 2 * n - 3; i >= 0; i--) depth[i] = depth[parent[i]!]! + 1;
  const lengths = new Uint8Array(weights.length);
  for (let i = 0; i < n; i++) lengths[leaves[i]!] = depth[i]!;
  return lengths;
}

/** Canonical Huffman codes for the lengths (RFC 1951, 3.2.2), bit-reversed for the writer. */
function canonicalCodes(lengths: Uint8Array): Uint16Array {
  const perLength = new Uint16Array(MAX_CODE_BITS + 1);
  for (const length of lengths) if (length > 0) perLength[length]!++;
  const nextCode = new Uint16Array(MAX_CODE_BITS + 1);
  for (let bits = 1, next = 0; bits <= MAX_CODE_BITS; bits++) {
    next = (next + perLength[bits - 1]!) << 1;
    nextCode[bits] = next;
  }
  const codes = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) {
    const length = lengths[s]!;
    if (length > 0) codes[s] = reverseBits(nextCode[length]!++, length);
  }
  return codes;
}

function reverseBits(value: number, width: number): number {
  let out = 0;
  for (let i = 0; i < width; i++) out = (out << 1) | ((value >>> i) & 1);
  return out;
}
