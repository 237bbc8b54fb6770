/**
 * Writes H.264 syntax elements MSB first (ITU-T H.264 §7.2): fixed-width u(n), Exp-Golomb ue(v)
 * and se(v), and the byte alignments a NAL unit's payload (its RBSP) ends with.
 */
export class BitWriter {
  private readonly bytes: number[] = [];
  /** The byte being filled and how many of its bits are written (0..7). */
  private current = 0;
  private used = 0;

  /** u(n): `value` in `width` bits (at most 32). */
  u(width: number, value: number): this {
    if (width < 0 || width > 32) throw new Error(`u(n) takes 0 to 32 bits; got ${width}.`);
    if (value < 0 || (width < 32 && value >= 2 ** width)) {
      throw new Error(`${value} does not fit in ${width} bits.`);
    }
    for (let bit = width - 1; bit >= 0; bit--) this.bit(Math.floor(value / 2 ** bit) & 1);
    return this;
  }

  flag(on: boolean): this {
    return this.bit(on ? 1 : 0);
  }

  /** ue(v): unsigned Exp-Golomb, `value + 1` in binary after as many zeros as it has bits less one. */
  ue(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xfffffffe) {
      throw new Error(`ue(v) codes integers 0 to 2^32 - 2; got ${value}.`);
    }
    const code = value + 1;
    const bits = Math.floor(Math.log2(code)) + 1;
    return this.u(bits - 1, 0).u(bits, code);
  }

  /** se(v): signed Exp-Golomb, mapping 1, -1, 2, -2 … to 1, 2, 3, 4 … (§9.1.1). */
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** Whole bytes, written as they are (the writer must be byte-aligned). */
  raw(bytes: Uint8Array): this {
    if (this.used !== 0) throw new Error('raw bytes need a byte-aligned writer.');
    for (const byte of bytes) this.bytes.push(byte);
    return this;
  }

  get aligned(): boolean {
    return this.used === 0;
  }

  /** Zero bits up to the next byte boundary (pcm_alignment_zero_bit). */
  alignWithZeros(): this {
    while (this.used !== 0) this.bit(0);
    return this;
  }

  /** rbsp_trailing_bits(): a stop bit of 1, then zeros to the byte boundary. */
  trailingBits(): this {
    return this.bit(1).alignWithZeros();
  }

  /** The bytes written; the writer must be byte-aligned (end with trailingBits()). */
  toBuffer(): Buffer {
    if (this.used !== 0)
      throw new Error('The RBSP is not byte-aligned: end it with trailingBits().');
    return Buffer.from(this.bytes);
  }

  private bit(value: number): this {
    this.current = (this.current << 1) | value;
    if (++this.used === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.used = 0;
    }
    return this;
  }
}

/**
 * Emulation prevention (§7.4.1): inserts 0x03 after any two zero bytes that precede a byte of
 * 0x00 to 0x03, so no start code (00 00 01) appears inside a NAL unit.
 */
export function escapeEmulation(rbsp: Uint8Array): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 0x03) {
      out.push(0x03);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}
