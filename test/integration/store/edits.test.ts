import { afterEach, describe, expect, it } from 'vitest';
import type { NewJobEdit } from '../../../main/core/store/edit-repository.ts';
import { prompts, tempStore } from './temp-store.ts';

// The job_edits table on a real SQLite file: what cascades, what is kept, what is refused.

let opened: ReturnType<typeof tempStore>;
afterEach(() => opened?.cleanup());

const sha = (c: string) => c.repeat(64);
const edit = (patch: Partial<NewJobEdit> = {}): NewJobEdit => ({
  imageSha256: sha('a'),
  width: 64,
  height: 32,
  maskSha256: sha('b'),
  sourceImageId: null,
  sourceLabel: 'photo.png',
  keepOutsideMask: false,
  ...patch,
});

describe('edits in the store', () => {
  it("keep each job's inputs and source; a deleted source leaves the edit, a deleted batch takes it", () => {
    opened = tempStore();
    const { store } = opened;
    const generated = store.batches.create({ name: 'g' }, prompts(1), 1);
    const [job] = store.jobs.listInBatch(generated.id);
    const [source] = store.images.addResults(job!.id, [{ idx: 1, url: 'http://x/1.png' }], 1);

    const edits = store.batches.create({ name: 'e' }, prompts(2), 2);
    store.edits.addToBatch(edits.id, [
      edit({ sourceImageId: source!.id, sourceLabel: 'g/1.png' }),
      edit({ imageSha256: sha('c'), maskSha256: null }),
    ]);
    const [first, second] = store.jobs.listInBatch(edits.id);
    expect(store.edits.ofJob(first!.id)).toEqual({
      jobId: first!.id,
      ...edit({ sourceImageId: source!.id, sourceLabel: 'g/1.png' }),
    });
    expect(store.edits.ofJob(job!.id)).toBeUndefined();
    expect([...store.edits.inputsInUse()].sort()).toEqual([sha('a'), sha('b'), sha('c')]);

    // the source image's record goes: the edit stays, its label says what it was
    store.gallery.deleteRows([source!.id]);
    expect(store.edits.ofJob(first!.id)).toMatchObject({
      sourceImageId: null,
      sourceLabel: 'g/1.png',
    });

    store.batches.delete(edits.id);
    expect(store.edits.ofJob(second!.id)).toBeUndefined();
    expect(store.edits.inputsInUse().size).toBe(0);
  });

  it('refuses a batch whose jobs and edits do not pair up, and keeping outside a mask there is not', () => {
    opened = tempStore();
    const { store } = opened;
    const batch = store.batches.create({ name: 'e' }, prompts(2), 1);
    expect(() => store.edits.addToBatch(batch.id, [edit()])).toThrow(/2 jobs but 1 edits/);
    expect(() =>
      store.edits.addToBatch(batch.id, [edit(), edit({ maskSha256: null, keepOutsideMask: true })]),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      store.edits.addToBatch(batch.id, [edit(), edit({ imageSha256: 'short' })]),
    ).toThrow(/CHECK constraint/);
  });
});
