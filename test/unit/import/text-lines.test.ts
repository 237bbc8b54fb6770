import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { textLines } from '../../../main/core/import/text-lines.ts';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

/** What node:readline gives for the same chunks, as prompt files were read before. */
const byReadline = (chunks: string[]) =>
  collect(createInterface({ input: Readable.from(chunks), crlfDelay: Infinity }));

const TEXTS = [
  '',
  'a',
  'a\n',
  '\n',
  '\n\n',
  'a\nb',
  'a\r\nb\r\n',
  'a\rb\r',
  'a\r\r\nb',
  '\r\n\r\n',
  '\r',
  'a\n\rb\n\r',
  'a cat\r\n\r\n# a comment\ra dog\n\nthe end',
  'é ü\u2028 ok\r\n😀\n',
  'a\r\u2029b\u2028',
];

describe('textLines', () => {
  it('gives the lines readline gives, wherever the chunks split the text', async () => {
    for (const text of TEXTS) {
      const whole = await byReadline([text]);
      expect(await collect(textLines(Readable.from([text]))), JSON.stringify(text)).toEqual(whole);
      for (let i = 0; i <= text.length; i++) {
        for (let j = i; j <= text.length; j++) {
          // (a byte stream never gives an empty chunk: readline would forget a \r before one)
          const chunks = [text.slice(0, i), text.slice(i, j), text.slice(j)].filter(Boolean);
          expect(await collect(textLines(Readable.from(chunks))), JSON.stringify(chunks)).toEqual(
            await byReadline(chunks),
          );
        }
      }
    }
  });

  it('keeps two readings apart when they interleave', async () => {
    const a = textLines(Readable.from(['1\n2\n', '3\n']));
    const b = textLines(Readable.from(['x\r\ny\r\n']));
    const order = [a, b, a, b, a];
    const got = [];
    for (const lines of order) got.push((await lines.next()).value);
    expect(got).toEqual(['1', 'x', '2', 'y', '3']);
  });
});
