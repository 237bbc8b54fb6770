import { describe, expect, it } from 'vitest';
import { notTextProblem } from '../../../main/core/import/prompt-text.ts';

describe('notTextProblem', () => {
  it('knows pictures, documents and archives by their first bytes', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(notTextProblem(png, true)).toMatch(/^not a text file \(it looks like a PNG image\)/);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
    expect(notTextProblem(jpeg, false)).toMatch(/a JPEG image/);
    const webp = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1');
    expect(notTextProblem(webp, true)).toMatch(/a WebP image/);
    expect(notTextProblem(Buffer.from('%PDF-1.7\n'), true)).toMatch(/a PDF document/);
  });

  it('calls bytes full of control characters binary, but not text with a few', () => {
    const binary = Buffer.from(Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? 1 : 65)));
    expect(notTextProblem(binary, true)).toMatch(/it holds binary data/);
    // UTF-16 has a NUL in every other byte: that is text, read as such elsewhere
    expect(notTextProblem(Buffer.from('a fox in the snow\n', 'utf16le'), false)).toBeNull();
    const text = Buffer.from('a fox\tin the snow\r\nan owl \x1b[1m at night\n');
    expect(notTextProblem(text, true)).toBeNull();
  });
});
