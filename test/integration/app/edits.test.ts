import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditInputFiles } from '../../../main/core/edits/input-files.ts';
import { ApiRequestError } from '../../../shared/api/unwrap.ts';
import type { Api } from '../../../shared/api/types.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { rectMask } from '../../support/edit-pictures.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

// The contract's edits, through the application service: images named by id, a painted mask
// as PNG bytes, a check per row, then a batch of edit jobs whose results link to the source.

let dir: string;
let opened: TestService;
let api: Api;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-app-edits-'));
  opened = await openTestService(dir);
  api = opened.api;
  await opened.service.startQueue();
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs until every job of the batch has finished and its images are on disk. */
async function finished(batchId: number) {
  await pollUntil(async () => {
    const batch = await api.batches.get({ id: batchId });
    const { queued, running, retrying } = batch.jobs;
    const { pending, downloading } = batch.downloads;
    return queued + running + retrying + pending + downloading === 0 && batch.jobCount > 0;
  }, `batch ${batchId} is finished`);
}

async function galleryImage(size: string): Promise<number> {
  const batch = await api.batches.create({
    source: { kind: 'rows', rows: [{ prompt: 'a lake at dawn' }] },
    defaults: { model: 'flux-schnell', size, response_format: 'b64_json' },
  });
  await finished(batch.id);
  const { ids } = await api.images.ids({ query: { batchId: batch.id } });
  return ids[0]!;
}

const maskBase64 = async (width: number, height: number) =>
  (await rectMask(width, height, { left: 0, top: 0, width: width / 2, height })).toString('base64');

describe('edits through the contract', () => {
  it('check names each row and counts the jobs; create queues them; the results say what they were edited from', async () => {
    const source = await galleryImage('64x32');
    const mask = { png: await maskBase64(64, 32) };

    const check = await api.edits.check({
      images: [source],
      prompts: 'a red boat\n\na white swan',
      mask,
      model: 'flux-schnell',
      n: 2,
    });
    expect(check).toEqual({
      jobs: 2,
      images: 4,
      errors: [],
      bad: 0,
      warnings: [],
      models: { 'flux-schnell': { jobs: 2, images: 4 } },
      // what the edit will spend, priced like a batch (flux-schnell's list price)
      spend: expect.objectContaining({ requests: 2, images: 4, units: 1200 }),
    });

    const edit = {
      images: [source],
      prompts: 'a red boat\n\na white swan',
      mask,
      model: 'flux-schnell',
      keepOutsideMask: true,
    };
    // past the confirmation threshold, an edit starts only with the spend confirmed
    await api.settings.update({ confirmSpend: { units: 500, requests: null } });
    await expect(api.edits.create(edit)).rejects.toMatchObject({
      code: 'confirmation-required',
      details: { spend: { units: 600, requests: 2 } },
    });
    expect((await api.batches.list({})).items).toHaveLength(1);
    const batch = await api.edits.create({ ...edit, confirmedSpend: { units: 600, requests: 2 } });
    expect(batch).toMatchObject({ jobCount: 2, name: expect.stringMatching(/^Edits of /) });
    await finished(batch.id);

    const edits = await api.images.ids({ query: { edits: true } });
    const generated = await api.images.ids({ query: { edits: false } });
    expect(edits.total).toBe(2);
    expect(generated.ids).toEqual([source]);
    expect((await api.images.ids({ query: { editedFrom: source } })).ids.sort()).toEqual(
      [...edits.ids].sort(),
    );
    expect(await api.images.count({ query: { edits: true, batchId: batch.id } })).toEqual({
      total: 2,
    });

    const detail = await api.images.get({ id: edits.ids[0]! });
    const sourceDetail = await api.images.get({ id: source });
    expect(detail.editedFrom).toEqual({
      imageId: source,
      label: `image ${source} (${sourceDetail.relPath})`,
      mask: true,
      keepOutsideMask: true,
    });
    expect(detail).toMatchObject({ width: 64, height: 32 });
    expect(detail.params).not.toHaveProperty('edit');
    expect(sourceDetail.editedFrom).toBeNull();
  });

  it('refuses what cannot be sent, row by row, and creates nothing', async () => {
    const square = await galleryImage('32x32');
    const wide = await galleryImage('64x32');
    const ask = {
      images: [square, wide, 99_999],
      prompts: 'a hat',
      mask: { png: await maskBase64(32, 32) },
      model: 'dall-e-2',
    };
    const check = await api.edits.check(ask);
    expect(check.errors).toEqual([
      {
        label: `image ${wide} (${(await api.images.get({ id: wide })).relPath})`,
        imageId: wide,
        message: expect.stringContaining('square pictures only; this one is 64×32'),
      },
      { label: 'image 99999', imageId: 99_999, message: 'Image 99999 does not exist (any more).' },
    ]);
    expect(check.warnings).toEqual([
      expect.objectContaining({ imageId: wide, message: expect.stringContaining('stretched') }),
    ]);
    expect(check.jobs).toBe(1);

    const before = (await api.batches.list({})).items.length;
    const refused = await api.edits.create(ask).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect((refused as ApiRequestError).code).toBe('invalid-argument');
    expect((refused as ApiRequestError).details).toMatchObject({ bad: 2 });
    expect((await api.batches.list({})).items).toHaveLength(before);
  });

  it('refuses a mask that is not base64, and several images with several prompts', async () => {
    const image = await galleryImage('16x16');
    await expect(
      api.edits.check({ images: [image], prompts: 'x', mask: { png: 'not base64!' }, model: 'm' }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
    const check = await api.edits.check({
      images: [image, image],
      prompts: 'one\ntwo',
      model: 'flux-schnell',
    });
    expect(check.errors[0]).toMatchObject({ label: 'the request' });
  });

  it("keeps an edit's inputs in the data folder until no job needs them", async () => {
    const source = await galleryImage('32x32');
    const batch = await api.edits.create({
      images: [source],
      prompts: 'a hat',
      mask: { png: await maskBase64(32, 32) },
      model: 'flux-schnell',
    });
    await finished(batch.id);
    const inputs = EditInputFiles.of(opened.service.store);
    expect(readdirSync(inputs.dir)).toHaveLength(2);
    await api.batches.delete({ id: batch.id });
    // the delete sweeps only inputs older than an hour (an edit being created writes its own
    // before its jobs are committed); without that grace, none is left
    expect(await inputs.sweep(opened.service.store.edits.inputsInUse(), { graceMs: 0 })).toBe(2);
    expect(existsSync(inputs.dir) && readdirSync(inputs.dir)).toEqual([]);
  });
});
