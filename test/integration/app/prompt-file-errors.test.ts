import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Api } from '../../../shared/api/types.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
let api: Api;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-rows-'));
  opened = await openTestService(dir);
  ({ api } = opened);
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

const defaults = { model: 'flux-schnell', size: '64x64' };
// line 3: n is no number; line 4: a quote never closed; line 5: valid, after it
const text = 'prompt,n\na fox,1\nan owl,many\n"a hare,1\na crow,2\n';
const source = { kind: 'text' as const, fileName: 'animals.csv', text };

describe('prompt-file errors through the contract', () => {
  it('names each bad row by a code a window can word, and how many rows are valid', async () => {
    const check = await api.batches.check({ source, defaults });
    expect(check).toMatchObject({ rows: 4, jobs: 2, bad: 2 });
    expect(check.errors.map(({ line, code }) => ({ line, code }))).toEqual([
      { line: 3, code: 'field' },
      { line: 4, code: 'csv-quote' },
    ]);
    // no flag of the command line in what a window shows
    expect(JSON.stringify(check.errors)).not.toContain('--');
  });

  it('refuses the file with its rows, or runs the valid rows when asked', async () => {
    await expect(api.batches.create({ source, defaults })).rejects.toMatchObject({
      code: 'prompt-file',
      details: {
        bad: 2,
        rows: [
          { line: 3, code: 'field' },
          { line: 4, code: 'csv-quote' },
        ],
      },
    });
    const batch = await api.batches.create({ source, defaults, skipBadRows: true, paused: true });
    expect(batch.jobCount).toBe(2);
    const ids = await api.jobs.ids({ batchId: batch.id });
    const jobs = await api.jobs.byIds({ ids: ids.ids });
    expect(jobs.map((job) => job.prompt)).toEqual(['a fox', 'a crow']);
  });
});
