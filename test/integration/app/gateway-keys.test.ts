import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { DEFAULT_MODELS } from '../../../main/simulator/models.ts';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import type { Api } from '../../../shared/api/types.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

const OFFICE_KEY = 'sk-office-00000000aaaa';
const LAB_KEY = 'sk-lab-000000000000bbbb';

let dir: string;
let opened: TestService;
let service: AppService;
let api: Api;
let office: RunningGateway;
let lab: RunningGateway;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-keys-'));
  // the office gateway also serves two models Atelier's catalogue has no entry for
  office = await startGateway({
    latencyMs: 0,
    keys: [{ key: OFFICE_KEY }],
    models: [
      ...DEFAULT_MODELS,
      { kind: 'text', id: 'glm-4-air', pricePerToken: 1 },
      { kind: 'text', id: 'moonshot-v1-8k', pricePerToken: 1 },
    ],
  });
  lab = await startGateway({ latencyMs: 0, keys: [{ key: LAB_KEY }] });
});
afterEach(async () => {
  await opened.close();
  await office.close();
  await lab.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(env: NodeJS.ProcessEnv = {}) {
  opened = await openTestService(dir, { env });
  ({ service, api } = opened);
  await api.settings.update({
    profiles: [
      { name: 'office', baseUrl: office.url, headers: [] },
      { name: 'lab', baseUrl: lab.url, headers: [] },
    ],
    gateway: { kind: 'remote', profile: 'office' },
  });
}

describe('a key per gateway', () => {
  it('sends each gateway its own key, the shared one to those without, and never shows one', async () => {
    await open();
    expect(await api.key.status({ profile: 'office' })).toMatchObject({ set: false });
    await api.key.set({ key: OFFICE_KEY, profile: 'office' });
    await api.key.set({ key: LAB_KEY });
    expect(await api.key.status({ profile: 'lab' })).toMatchObject({
      set: true,
      shared: true,
      last4: 'bbbb',
      locked: null,
    });
    expect(await api.key.test({ profile: 'office' })).toMatchObject({ ok: true });
    expect(await api.key.test({ profile: 'lab' })).toMatchObject({ ok: true });

    await service.startQueue();
    await api.batches.create({
      source: { kind: 'rows', rows: [{ prompt: 'a fox' }] },
      defaults: { model: 'flux-schnell', size: '64x64' },
    });
    await pollUntil(() => office.ledger.entries().length === 1, 'the office gateway is called');
    expect(lab.ledger.entries()).toHaveLength(0);

    // renamed in place: its key goes with it
    await api.settings.update({
      profiles: [
        { name: 'work', baseUrl: office.url, headers: [] },
        { name: 'lab', baseUrl: lab.url, headers: [] },
      ],
    });
    expect((await api.settings.get({})).gateway).toEqual({ kind: 'remote', profile: 'work' });
    expect(await api.key.status({ profile: 'work' })).toMatchObject({
      shared: false,
      last4: 'aaaa',
    });
    await expect(api.key.status({ profile: 'office' })).rejects.toMatchObject({
      code: 'not-found',
    });
    const everything = JSON.stringify([await api.settings.get({}), await api.key.status({})]);
    expect(everything).not.toContain(OFFICE_KEY.slice(3, -4));
  });

  it('says ATELIER_API_KEY decides before a click, for every gateway', async () => {
    await open({ ATELIER_API_KEY: OFFICE_KEY });
    const status = await api.key.status({ profile: 'lab' });
    expect(status).toMatchObject({
      source: 'env',
      locked: expect.stringContaining('ATELIER_API_KEY'),
    });
    await expect(api.key.set({ key: LAB_KEY, profile: 'lab' })).rejects.toMatchObject({
      code: 'conflict',
    });
  });
});

describe('models the gateway lists and Atelier does not know', () => {
  it('are named by the connection test, and added from a form', async () => {
    await open();
    await api.key.set({ key: OFFICE_KEY });
    const test = await api.key.test({});
    const known = createCatalogue();
    const unknown = (test.models ?? []).filter((id) => !known.knows(id));
    expect(unknown.length).toBeGreaterThan(0);
    expect(test.unknownModels).toEqual(unknown);
    expect(test.message).toContain(`Atelier has no entry for ${unknown.length} of them`);

    const catalogue = await api.models.addEntries({
      entries: unknown.map((id) => ({ kind: 'text' as const, id })),
    });
    expect(catalogue.entries.filter((e) => e.origin === 'user').map((e) => e.entry.id)).toEqual(
      unknown,
    );
    expect((await api.key.test({})).unknownModels).toEqual([]);
    // an image model from its form's fields: sizes, a price; the rest the catalogue's defaults
    const added = await api.models.addEntries({
      entries: [{ kind: 'image', id: 'my-sdxl', sizes: ['1024x1024'], pricePerImage: 120 }],
    });
    expect(added.entries.find((e) => e.entry.id === 'my-sdxl')?.entry).toMatchObject({
      kind: 'image',
      protocol: 'openai',
      sizes: ['1024x1024'],
      pricePerImage: 120,
    });
    await expect(
      api.models.addEntries({ entries: [{ kind: 'image', id: 'my-sdxl' }] }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      api.models.addEntries({ entries: [{ kind: 'image', id: 'bad id', sizes: ['big'] }] }),
    ).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});
