import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatOf,
  readPromptFile,
  type ParsedRecord,
} from '../../../main/core/import/prompt-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'atelier-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string, content: string): Promise<ParsedRecord[]> {
  const path = join(dir, name);
  writeFileSync(path, content);
  const out: ParsedRecord[] = [];
  for await (const record of readPromptFile(path)) out.push(record);
  return out;
}

describe('readPromptFile', () => {
  it('reads a text list: one prompt a line, blank lines and # comments skipped, line numbers kept', async () => {
    const records = await read('list.txt', '\uFEFFa cat\n\n# a comment\r\na dog\n');
    expect(records).toEqual([
      { row: { line: 1, prompt: 'a cat', extra: {} } },
      { row: { line: 4, prompt: 'a dog', extra: {} } },
    ]);
  });

  it('reads CSV with a header, quoted commas and newlines, and extra columns', async () => {
    const records = await read(
      'sheet.csv',
      'Prompt,n,seed,guidance_scale\n"a cat, sleeping",2,7,3.5\n"a poem\nin two lines",,,\n',
    );
    expect(records).toEqual([
      {
        row: {
          line: 2,
          prompt: 'a cat, sleeping',
          n: 2,
          seed: 7,
          extra: { guidance_scale: '3.5' },
        },
      },
      { row: { line: 4, prompt: 'a poem\nin two lines', extra: {} } },
    ]);
  });

  it('reports a CSV without a prompt column', async () => {
    const records = await read('bad-header.csv', 'text,n\nhello,1\n');
    expect(records).toEqual([
      { error: { line: 1, code: 'header', message: 'the header row has no "prompt" column' } },
    ]);
  });

  it('reports CSV rows with bad values and a wrong column count, with their lines', async () => {
    const records = await read('bad-rows.csv', 'prompt,n\nok,1\nbad,zero\nshort,1,extra\n');
    expect(records[0]).toEqual({ row: { line: 2, prompt: 'ok', n: 1, extra: {} } });
    expect(records[1]).toMatchObject({
      error: { line: 3, message: expect.stringMatching(/^n must be a whole/) },
    });
    expect(records[2]).toMatchObject({ error: { line: 4 } });
  });

  it('reads JSONL and reports lines that are not JSON objects', async () => {
    const records = await read(
      'rows.jsonl',
      '{"prompt":"a","n":2,"lora_id":"x"}\n{"prompt":\n[1,2]\n\n{"prompt":"b"}\n',
    );
    expect(records[0]).toEqual({ row: { line: 1, prompt: 'a', n: 2, extra: { lora_id: 'x' } } });
    expect(records[1]).toMatchObject({
      error: { line: 2, message: expect.stringMatching(/not valid JSON/) },
    });
    expect(records[2]).toMatchObject({
      error: { line: 3, message: expect.stringMatching(/JSON object/) },
    });
    expect(records[3]).toEqual({ row: { line: 5, prompt: 'b', extra: {} } });
  });

  it('names the accepted formats for an unknown extension', () => {
    expect(() => formatOf('prompts.xlsx')).toThrow(/use a \.txt .*\.csv or \.jsonl/);
  });
});
