import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import {
  checkPrompts,
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
        message: 'the prompt is longer than 1000 characters, the most dall-e-2 takes (shorten it)',
      },
    ]);
  });

  it('refuses a NUL character written as a JSON escape (\\u0000), naming the field', async () => {
    const file = setup([JSON.stringify({ prompt: 'a\u0000b' }), JSON.stringify({ prompt: 'ok' })]);
    const error = await importPromptFile(store, file, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PromptFileError);
    expect((error as PromptFileError).errors).toEqual([
      { line: 1, message: expect.stringMatching(/^prompt holds a NUL character/) },
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
      jobs: 2,
      images: 3,
      bad: 1,
      models: { 'flux-schnell': { jobs: 1, images: 2 }, 'dall-e-3': { jobs: 1, images: 1 } },
    });
    expect(check.errors).toEqual([{ line: 3, message: expect.stringMatching(/lowercase x/) }]);
    expect(store.batches.list()).toEqual([]);
  });
});
