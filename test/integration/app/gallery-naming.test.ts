import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { SettingsFile } from '../../../main/core/settings/settings-file.ts';
import { NEW_FOLDER_TEMPLATE } from '../../../shared/library/templates.ts';
import type { Api } from '../../../shared/api/types.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
let service: AppService;
let api: Api;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-gallery-'));
  opened = await openTestService(dir);
  ({ service, api } = opened);
});
afterEach(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A matrix: one prompt, two sizes, twice; then waits until every image is written. */
async function runMatrix(): Promise<number> {
  await service.startQueue();
  const batch = await api.batches.create({
    source: {
      kind: 'rows',
      rows: [
        { prompt: 'a lighthouse', size: '64x64' },
        { prompt: 'a lighthouse', size: '96x64' },
        { prompt: 'a lighthouse', size: '96x64', seed: 1234 },
      ],
    },
    defaults: { model: 'flux-schnell', response_format: 'b64_json' },
    name: 'Matrix',
  });
  await pollUntil(
    async () => (await api.batches.get({ id: batch.id })).downloads.done === 3,
    'the matrix is written',
  );
  return batch.id;
}

describe('the gallery and file names', () => {
  it("names a new data folder's images by model and size, so a matrix's are told apart", async () => {
    expect((await api.settings.get({})).template).toBe(NEW_FOLDER_TEMPLATE);
    expect((await api.library.info({})).example).toBe(
      'spring-posters/0007-a-lighthouse-at-dawn-watercolor-flux-schnell-1024x1024-42.png',
    );
    const batchId = await runMatrix();
    const images = await api.images.page({ query: { batchId, order: 'oldest' }, limit: 10 });
    const names = images.items.map((image) => image.relPath!.split('/').pop());
    // (no seed asked for: none in the name, as before)
    expect(names[0]).toBe('0001-a-lighthouse-flux-schnell-64x64.png');
    expect(names[1]).toBe('0002-a-lighthouse-flux-schnell-96x64.png');
    expect(names[2]).toBe('0003-a-lighthouse-flux-schnell-96x64-1234.png');
  });

  it('records the seed the gateway says it used, and lists what the library holds', async () => {
    const batchId = await runMatrix();
    const { items } = await api.images.page({ query: { batchId, order: 'oldest' }, limit: 10 });
    const details = await Promise.all(items.map((image) => api.images.get({ id: image.id })));
    // none asked for: the simulator's own seed, as its answer says
    expect(details[0]!.seedFrom).toBe('gateway');
    expect(details[0]!.seed).toEqual(expect.any(Number));
    expect(details[2]).toMatchObject({ seed: 1234, seedFrom: 'gateway' });

    expect(await api.images.facets({})).toEqual({
      sizes: [
        { value: '64x64', count: 1 },
        { value: '96x64', count: 2 },
      ],
      models: [{ value: 'flux-schnell', count: 3 }],
    });
  });
});

describe("an older data folder's file names", () => {
  it('keep the earlier default when its settings say none (null)', () => {
    const dataDir = path.join(dir, 'older');
    mkdirSync(dataDir);
    writeFileSync(
      path.join(dataDir, 'settings.json'),
      JSON.stringify({ version: 2, template: null, concurrency: 4 }),
    );
    expect(new SettingsFile({ dataDir, watchIntervalMs: 0 }).read().template).toBeNull();
    const legacy = path.join(dir, 'legacy');
    mkdirSync(legacy);
    writeFileSync(path.join(legacy, 'settings.json'), JSON.stringify({ concurrency: 4 }));
    expect(new SettingsFile({ dataDir: legacy, watchIntervalMs: 0 }).read().template).toBeNull();
    const fresh = path.join(dir, 'fresh');
    expect(new SettingsFile({ dataDir: fresh, watchIntervalMs: 0 }).read().template).toBe(
      NEW_FOLDER_TEMPLATE,
    );
  });
});
