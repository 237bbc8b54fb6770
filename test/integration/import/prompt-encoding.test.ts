import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPromptFile, type ParsedRecord } from '../../../main/core/import/prompt-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'atelier-encoding-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string, bytes: Buffer): Promise<ParsedRecord[]> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const out: ParsedRecord[] = [];
  for await (const record of readPromptFile(path)) out.push(record);
  return out;
}

/** What Windows Notepad writes for "Unicode" (UTF-16 LE) and "Unicode big endian". */
const utf16le = (text: string, bom = true) =>
  Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string, bom = true) => {
  const bytes = Buffer.from(text, 'utf16le').swap16();
  return Buffer.concat([Buffer.from(bom ? [0xfe, 0xff] : []), bytes]);
};
const utf8bom = (text: string) =>
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);

const prompts = (records: ParsedRecord[]) =>
  records.map((r) => ('row' in r ? [r.row.line, r.row.prompt] : ['error', r.error]));

describe('prompt files in UTF-16 and UTF-8 with a byte-order mark', () => {
  const text = 'un café à l’aube 🎨\r\n\r\n# note\r\n灯台 at dusk\r\n';
  const expected = [
    [1, 'un café à l’aube 🎨'],
    [4, '灯台 at dusk'],
  ];

  it.each([
    ['UTF-16 LE with a BOM', utf16le(text)],
    ['UTF-16 BE with a BOM', utf16be(text)],
    ['UTF-8 with a BOM', utf8bom(text)],
    ['UTF-16 LE without a BOM', utf16le('a red fox\r\nA blue bird\r\n', false)],
  ])('reads a .txt in %s: the same prompts, no NUL, no extra job', async (name, bytes) => {
    const records = await read(`${name}.txt`, bytes);
    if (name.includes('without')) {
      expect(prompts(records)).toEqual([
        [1, 'a red fox'],
        [2, 'A blue bird'],
      ]);
    } else {
      expect(prompts(records)).toEqual(expected);
    }
  });

  it('reads UTF-16 BE without a BOM too', async () => {
    const records = await read('be-nobom.txt', utf16be('a red fox\nA blue bird\n', false));
    expect(prompts(records)).toEqual([
      [1, 'a red fox'],
      [2, 'A blue bird'],
    ]);
  });

  it.each([
    ['UTF-16 LE', utf16le],
    ['UTF-16 BE', utf16be],
    ['UTF-8 BOM', (t: string) => utf8bom(t)],
  ])('reads a .jsonl and a .csv in %s', async (name, encode) => {
    const jsonl = await read(
      `${name}.jsonl`,
      encode('{"prompt":"café 🎨","n":2}\n{"prompt":"b"}\n'),
    );
    expect(jsonl).toEqual([
      { row: { line: 1, prompt: 'café 🎨', n: 2, extra: {} } },
      { row: { line: 2, prompt: 'b', extra: {} } },
    ]);
    const csv = await read(`${name}.csv`, encode('prompt,seed\r\n"café, 🎨",7\r\nb,\r\n'));
    expect(csv).toEqual([
      { row: { line: 2, prompt: 'café, 🎨', seed: 7, extra: {} } },
      { row: { line: 3, prompt: 'b', extra: {} } },
    ]);
  });

  it('keeps reading a file streamed in many chunks (a long UTF-16 file)', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `prompt ${i + 1} ✓`);
    const records = await read('long.txt', utf16le(`${lines.join('\r\n')}\r\n`));
    expect(records).toHaveLength(30_000);
    expect(records[29_999]).toEqual({ row: { line: 30_000, prompt: 'prompt 30000 ✓', extra: {} } });
  });
});

describe('prompt files that are not text', () => {
  const invalid = Buffer.concat([
    Buffer.from('fine\nalso fine\nbad '),
    Buffer.from([0xc3, 0x28]), // a broken two-byte sequence
    Buffer.from(' here\nlast\n'),
  ]);

  it.each([
    ['txt', invalid],
    [
      'jsonl',
      Buffer.from(
        invalid.toString('latin1').replace(/^(.*)$/gm, (l) => (l ? `{"prompt":"${l}"}` : l)),
        'latin1',
      ),
    ],
    ['csv', Buffer.concat([Buffer.from('prompt\n'), invalid])],
  ])('refuses invalid UTF-8 in a .%s with its line number', async (ext, bytes) => {
    const records = await read(`invalid.${ext}`, bytes);
    const line = ext === 'csv' ? 4 : 3;
    const errors = records.filter((r) => 'error' in r);
    expect(errors).toEqual([
      {
        error: {
          line,
          code: 'encoding',
          message: expect.stringMatching(/not valid UTF-8.*save the file as UTF-8/),
        },
      },
    ]);
    // nothing from the bad line or after it comes out as a prompt
    expect(prompts(records).filter(([l]) => typeof l === 'number' && l >= line)).toEqual([]);
  });

  it.each(['txt', 'jsonl', 'csv'])(
    'refuses a NUL byte in a .%s with its line number',
    async (ext) => {
      const body = ext === 'jsonl' ? '{"prompt":"a"}\n{"prompt":"b\0c"}\n' : 'a\nb\0c\n';
      const records = await read(
        `nul.${ext}`,
        Buffer.from(ext === 'csv' ? `prompt\n${body}` : body),
      );
      const errors = records.filter((r) => 'error' in r);
      expect(errors).toEqual([
        {
          error: {
            line: ext === 'csv' ? 3 : 2,
            code: 'encoding',
            message: expect.stringMatching(/NUL byte/),
          },
        },
      ]);
    },
  );
});
