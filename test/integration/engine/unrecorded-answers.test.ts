import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  keepUnrecordedAnswer,
  recordUnrecordedAnswers,
  UNRECORDED_FOLDER,
  type UnrecordedAnswer,
} from '../../../main/core/engine/unrecorded-answers.ts';
import { openStore, type Store } from '../../../main/core/store/store.ts';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'atelier-unrecorded-')));
  store = openStore(path.join(dir, 'atelier.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('answers kept in the library while the database refused them', () => {
  it('are neither written, read nor removed through a folder linked out of the library', async () => {
    const batch = store.batches.create({ name: 'b' }, [{ prompt: 'a fox', model: 'm' }], 1);
    const [job] = store.jobs.claimRunnable(1, 2);
    const attemptId = store.attempts.listForJob(job!.id)[0]?.id ?? 1;
    const answer: UnrecordedAnswer = {
      version: 1,
      jobId: job!.id,
      attemptId,
      batchDir: batch.dirName,
      prompt: 'a fox',
      receivedAt: 3,
      httpStatus: 200,
      requestId: null,
      upstreamRequestId: null,
      partial: false,
      images: [{ url: 'https://cdn.example/1.png', b64: null, revisedPrompt: null }],
    };
    const library = path.join(dir, 'library');
    const outside = path.join(dir, 'outside');
    mkdirSync(library);
    mkdirSync(outside);
    const theirs = path.join(outside, `job-${job!.id}-attempt-${attemptId}.json`);
    writeFileSync(theirs, JSON.stringify(answer));
    symlinkSync(outside, path.join(library, UNRECORDED_FOLDER));

    await expect(keepUnrecordedAnswer(library, { ...answer, attemptId: 99 })).rejects.toThrow(
      /leads outside the library/,
    );
    expect(await recordUnrecordedAnswers(store, library, 4)).toBe(0);
    expect(readdirSync(outside)).toEqual([path.basename(theirs)]);
    expect(store.jobs.get(job!.id)!.state).toBe('running');
  });
});
