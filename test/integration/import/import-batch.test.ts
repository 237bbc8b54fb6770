import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import sharp from 'sharp';
import {
  checkPrompts,
  fileSource,
  importPromptFile,
  importPrompts,
  rowsSource,
  textSource,
} from '../../../main/core/import/import-batch.ts';
import { PromptFileError } from '../../../main/core/import/prompt-file.ts';
import { openStore, type Store } from '../../../main/core/store/store.ts';

let dir: string;
let store: Store;
afterEach(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(lines: string[]) {
  dir = mkdtempSync(join(tmpdir(), 'atelier-import-batch-'));
  store = openStore(join(dir, 'atelier.db'));
  const file = join(dir, 'sheet.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ prompt: `fox ${i + 1}`, seed: i }));
const options = {
  catalogue: createCatalogue(),
  defaults: { model: 'flux-schnell', size: '64x64' },
};

describe('importPromptFile', () => {
  it.each([
    ['kept from the first pass', undefined],
    ['read again (a long file)', 3],
  ])('inserts every row in order, %s', async (_, keptRows) => {
    const file = setup(rows(10));
    const batch = await importPromptFile(store, file, {
      ...options,
      ...(keptRows ? { keptRows } : {}),
    });
    expect(batch).toMatchObject({ name: 'sheet', jobCount: 10 });
    const jobs = store.jobs.listInBatch(batch.id);
    expect(jobs.map((job) => [job.position, job.prompt, job.seed])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, `fox ${i + 1}`, i]),
    );
    expect(store.jobs.counts(batch.id).queued).toBe(10);
  });

  it('reports every bad row with its line, the model check included, and imports nothing', async () => {
    const file = setup([
      JSON.stringify({ prompt: 'ok' }),
      JSON.stringify({ prompt: 'times sign', size: '64×64' }),
      JSON.stringify({ prompt: 'too many', model: 'dall-e-3', size: '1024x1024', n: 3 }),
    ]);
    const error = await importPromptFile(store, file, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromptFileError);
    expect((error as PromptFileError).errors.map((e) => e.line)).toEqual([2, 3]);
    expect((error as Error).message).toMatch(/line 2: .*lowercase x/);
    expect(store.batches.list()).toEqual([]);
  });

  it('refuses prompts longer than maxPromptChars (32,000 by default) with their lines, grouped, and imports nothing', async () => {
    const file = setup([
      JSON.stringify({ prompt: 'x'.repeat(32_000) }),
      JSON.stringify({ prompt: 'y'.repeat(32_001) }),
      JSON.stringify({ prompt: 'fine' }),
      JSON.stringify({ prompt: '🎨'.repeat(40_000) }),
    ]);
    const error = await importPromptFile(store, file, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromptFileError);
    expect((error as PromptFileError).errors.map((e) => e.line)).toEqual([2, 4]);
    expect((error as Error).message).toContain(
      'lines 2, 4: the prompt is longer than 32000 characters',
    );
    expect(store.batches.list()).toEqual([]);

    const batch = await importPromptFile(store, file, { ...options, maxPromptChars: 40_000 });
    expect(batch.jobCount).toBe(4);
    // characters, not UTF-16 units: 40,000 emoji are 80,000 units
    expect(store.jobs.listInBatch(batch.id)[3]?.prompt).toHaveLength(80_000);
  });

  it("refuses a prompt longer than its model takes (the catalogue's maxPromptChars), naming the model", async () => {
    const file = setup([
      JSON.stringify({ prompt: 'x'.repeat(1_000), model: 'dall-e-2', size: '256x256' }),
      JSON.stringify({ prompt: 'x'.repeat(1_001), model: 'dall-e-2', size: '256x256' }),
      JSON.stringify({ prompt: 'x'.repeat(1_001) }),
    ]);
    const error = await importPromptFile(store, file, options).catch((e: unknown) => e);
    expect((error as PromptFileError).errors).toEqual([
      {
        line: 2,
        code: 'too-long',
        limit: 1000,
        model: 'dall-e-2',
        message: 'the prompt is longer than 1000 characters, the most dall-e-2 takes (shorten it)',
      },
    ]);
  });

  it('refuses a NUL character written as a JSON escape (\\u0000), naming the field', async () => {
    const file = setup([JSON.stringify({ prompt: 'a\u0000b' }), JSON.stringify({ prompt: 'ok' })]);
    const error = await importPromptFile(store, file, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromptFileError);
    expect((error as PromptFileError).errors).toEqual([
      { line: 1, code: 'field', message: expect.stringMatching(/^prompt holds a NUL character/) },
    ]);
    expect(store.batches.list()).toEqual([]);
  });
});

describe('prompts that are not a file', () => {
  it('imports pasted CSV text by the same rules as a file, multi-line prompts kept', async () => {
    setup([]);
    const text = 'prompt,seed\n"a fox\nin snow",1\nan owl,2\n';
    const batch = await importPrompts(store, textSource('pasted.csv', text), options);
    expect(batch).toMatchObject({ name: 'pasted', source: 'pasted.csv', jobCount: 2 });
    expect(store.jobs.listInBatch(batch.id).map((j) => j.prompt)).toEqual([
      'a fox\nin snow',
      'an owl',
    ]);
  });

  it('refuses pasted text with a bad line, naming the line, and imports nothing', async () => {
    setup([]);
    const text = '{"prompt":"ok"}\n{"prompt":\n';
    const error = await importPrompts(store, textSource('drop.jsonl', text), options).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PromptFileError);
    expect((error as PromptFileError).errors.map((e) => e.line)).toEqual([2]);
    expect(store.batches.list()).toEqual([]);
  });

  it('imports composed rows, extra fields passed to the model, named columns winning', async () => {
    setup([]);
    const batch = await importPrompts(
      store,
      rowsSource(
        [
          { prompt: 'a fox', n: 2, extra: { style: 'ink', prompt: 'ignored' } },
          { prompt: 'an owl', seed: 7 },
        ],
        'Composed',
      ),
      options,
    );
    expect(batch).toMatchObject({ name: 'Composed', source: null, jobCount: 2 });
    const jobs = store.jobs.listInBatch(batch.id);
    expect(jobs.map((j) => [j.prompt, j.n, j.seed])).toEqual([
      ['a fox', 2, null],
      ['an owl', 1, 7],
    ]);
    expect(jobs[0]!.params).toMatchObject({ extra: { style: 'ink' } });
  });

  it('checks rows without creating anything, counting jobs and images per model', async () => {
    setup([]);
    const check = await checkPrompts(
      rowsSource(
        [
          { prompt: 'a', n: 2 },
          { prompt: 'b', model: 'dall-e-3', size: '1024x1024' },
          { prompt: 'c', size: '64×64' },
        ],
        'x',
      ),
      options,
    );
    expect(check).toMatchObject({
      rows: 3,
      jobs: 2,
      images: 3,
      bad: 1,
      models: { 'flux-schnell': { jobs: 1, images: 2 }, 'dall-e-3': { jobs: 1, images: 1 } },
    });
    expect(check.errors).toEqual([
      { line: 3, code: 'model', message: expect.stringMatching(/lowercase x/) },
    ]);
    expect(store.batches.list()).toEqual([]);
  });
});

describe('files with some bad rows', () => {
  // line 3: a column too many; line 5: a quote never closed; line 7: n is no number
  const CSV = [
    'prompt,n',
    'a fox,1',
    'too,many,columns',
    'an owl,2',
    '"a quote that never closes,1',
    'a hare,1',
    'a crow,x',
    'a lynx,1',
  ].join('\n');

  it('reports every bad row, past an unclosed quote, and says which are valid', async () => {
    setup([]);
    const check = await checkPrompts(textSource('sheet.csv', CSV), options);
    expect(check.errors.map(({ line, code }) => ({ line, code }))).toEqual([
      { line: 3, code: 'csv' },
      { line: 5, code: 'csv-quote' },
      { line: 7, code: 'field' },
    ]);
    expect(check.errors[1]!.message).toMatch(/^a quoted field opens here and is never closed/);
    expect(check).toMatchObject({ rows: 7, jobs: 4, bad: 3, images: 5 });
    // no "holds no prompt": four rows are valid
    expect(check.errors.some((e) => e.code === 'empty')).toBe(false);
  });

  it('imports the valid rows only when asked, in order, with their own lines', async () => {
    setup([]);
    await expect(importPrompts(store, textSource('sheet.csv', CSV), options)).rejects.toThrow(
      'sheet.csv has 3 bad rows; nothing was imported',
    );
    const batch = await importPrompts(store, textSource('sheet.csv', CSV), {
      ...options,
      skipBadRows: true,
    });
    expect(store.jobs.listInBatch(batch.id).map((j) => j.prompt)).toEqual([
      'a fox',
      'an owl',
      'a hare',
      'a lynx',
    ]);
  });

  it('reads a long file twice (not kept in memory) and still leaves the bad rows out', async () => {
    setup([]);
    const batch = await importPrompts(store, textSource('sheet.csv', CSV), {
      ...options,
      skipBadRows: true,
      keptRows: 1,
    });
    expect(batch.jobCount).toBe(4);
  });

  it('says a picture renamed .txt is not a text file, once', async () => {
    setup([]);
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#08f' },
    })
      .png()
      .toBuffer();
    const file = join(dir, 'prompts.txt');
    writeFileSync(file, png);
    const check = await checkPrompts(fileSource(file), options);
    expect(check).toMatchObject({ rows: 1, jobs: 0, bad: 1 });
    expect(check.errors).toEqual([
      {
        line: 1,
        code: 'not-text',
        message:
          'not a text file (it looks like a PNG image): a prompt file is text, one prompt a ' +
          'line (.txt), or a CSV or JSONL file of prompts',
      },
    ]);
    // skipping bad rows leaves nothing: refused with why, not "holds no prompt"
    const error = await importPrompts(store, fileSource(file), { ...options, skipBadRows: true })
      .then(() => null)
      .catch((e: unknown) => e as PromptFileError);
    expect(error?.errors.map((e) => e.code)).toEqual(['not-text']);
  });

  it("says a prompt over Atelier's limit with the limit, and no flag of the command line", async () => {
    setup([]);
    const check = await checkPrompts(textSource('long.txt', 'short\n' + 'x'.repeat(50)), {
      ...options,
      maxPromptChars: 20,
    });
    expect(check.errors).toEqual([
      {
        line: 2,
        code: 'too-long',
        limit: 20,
        message:
          'the prompt is longer than 20 characters (shorten it, or raise the longest prompt accepted)',
      },
    ]);
  });
});
