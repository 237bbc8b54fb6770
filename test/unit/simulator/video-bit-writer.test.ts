import { describe, expect, it } from 'vitest';
import { BitWriter, escapeEmulation } from '../../../main/simulator/video/bit-writer.ts';
import { BitReader, unescapeRbsp } from '../../integration/simulator/h264-reader.ts';

/** The bits written, as a string of 0s and 1s (the writer is closed with alignment zeros). */
function bits(write: (w: BitWriter) => BitWriter, length: number): string {
  const bytes = write(new BitWriter()).alignWithZeros().toBuffer();
  return [...bytes]
    .map((b) => b.toString(2).padStart(8, '0'))
    .join('')
    .slice(0, length);
}

describe('BitWriter', () => {
  it('writes ue(v) as the Exp-Golomb codes of H.264 Table 9-2', () => {
    expect(bits((w) => w.ue(0), 1)).toBe('1');
    expect(bits((w) => w.ue(1), 3)).toBe('010');
    expect(bits((w) => w.ue(2), 3)).toBe('011');
    expect(bits((w) => w.ue(3), 5)).toBe('00100');
    expect(bits((w) => w.ue(6), 5)).toBe('00111');
    expect(bits((w) => w.ue(7), 7)).toBe('0001000');
    expect(bits((w) => w.ue(25), 9)).toBe('000011010'); // mb_type I_PCM
  });

  it('maps se(v) 1, -1, 2, -2 to codeNum 1, 2, 3, 4', () => {
    expect(bits((w) => w.se(0), 1)).toBe('1');
    expect(bits((w) => w.se(1), 3)).toBe('010');
    expect(bits((w) => w.se(-1), 3)).toBe('011');
    expect(bits((w) => w.se(2), 5)).toBe('00100');
    expect(bits((w) => w.se(-2), 5)).toBe('00101');
  });

  it('writes u(n) MSB first across byte boundaries, up to 32 bits', () => {
    const bytes = new BitWriter().u(4, 0xa).u(12, 0xbcd).u(32, 0xdeadbeef).toBuffer();
    expect(bytes.toString('hex')).toBe('abcddeadbeef');
    expect(() => new BitWriter().u(3, 8)).toThrow(/does not fit in 3 bits/);
  });

  it('round-trips values through an independent reader', () => {
    const values = [0, 1, 2, 5, 30, 254, 255, 256, 65534, 2 ** 20, 2 ** 32 - 2];
    const w = new BitWriter().flag(true);
    for (const v of values) w.ue(v).se(v % 2 === 0 ? -v / 2 : (v + 1) / 2);
    const r = new BitReader(w.trailingBits().toBuffer());
    expect(r.u(1)).toBe(1);
    for (const v of values) {
      expect(r.ue()).toBe(v);
      expect(r.se()).toBe(v % 2 === 0 ? -v / 2 : (v + 1) / 2);
    }
    expect(r.u(1)).toBe(1); // the stop bit
  });

  it('ends an RBSP with a stop bit and zeros, and refuses an unaligned end or raw write', () => {
    expect(new BitWriter().u(3, 0b101).trailingBits().toBuffer()).toEqual(Buffer.from([0xb0]));
    expect(new BitWriter().u(8, 7).trailingBits().toBuffer()).toEqual(Buffer.from([7, 0x80]));
    expect(() => new BitWriter().u(3, 1).toBuffer()).toThrow(/not byte-aligned/);
    expect(() => new BitWriter().u(1, 1).raw(new Uint8Array([1]))).toThrow(/byte-aligned/);
    expect(() => new BitWriter().ue(-1)).toThrow(/ue\(v\)/);
  });
});

describe('escapeEmulation', () => {
  const hex = (text: string) => Buffer.from(text.replace(/ /g, ''), 'hex');

  it('inserts 0x03 after two zero bytes before 00, 01, 02 or 03', () => {
    expect(escapeEmulation(hex('00 00 00'))).toEqual(hex('00 00 03 00'));
    expect(escapeEmulation(hex('00 00 01'))).toEqual(hex('00 00 03 01'));
    expect(escapeEmulation(hex('00 00 02'))).toEqual(hex('00 00 03 02'));
    expect(escapeEmulation(hex('00 00 03'))).toEqual(hex('00 00 03 03'));
    expect(escapeEmulation(hex('00 00 00 00 00'))).toEqual(hex('00 00 03 00 00 03 00'));
  });

  it('leaves other bytes alone', () => {
    for (const text of ['00 00 04', '00 01 00 01', '00 00', 'ff 00 00 80', '25 00 10 00 00 ff']) {
      expect(escapeEmulation(hex(text))).toEqual(hex(text));
    }
  });

  it('never leaves a start code, and undoes exactly', () => {
    const rbsp = Buffer.from(Array.from({ length: 4000 }, (_, i) => [0, 0, 1, 0, 3, 7][i % 6]!));
    const escaped = escapeEmulation(rbsp);
    for (const code of ['000000', '000001', '000002']) {
      expect(escaped.includes(Buffer.from(code, 'hex'))).toBe(false);
    }
    expect(unescapeRbsp(escaped)).toEqual(rbsp);
  });
});
