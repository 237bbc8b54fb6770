import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/core/app/dispatch.ts';
import { silentLogger } from '../../../main/core/logger.ts';
import { startWebHost, type WebHost } from '../../../main/web/web-host.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';
import { openSession } from '../../support/web-login.ts';

// Values a hostile caller sends, over real HTTP to the browser host and through dispatch (as
// IPC calls it): each is refused with a sentence, never a 500 or a database failure.

let dir: string;
let opened: TestService;
let host: WebHost;
let origin: string;
let authorization: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-hostile-values-'));
  opened = await openTestService(dir);
  host = await startWebHost({
    app: opened.service,
    rendererDir: dir,
    logger: silentLogger,
    checkOutput: true,
  });
  origin = new URL(host.url).origin;
  authorization = `Bearer ${(await openSession(host.newAddress())).token}`;
});
afterEach(async () => {
  await host.close();
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `{"a":{"a":…1…}}`, `depth` objects deep, as text (no recursion to build or send it). */
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

async function post(area: string, method: string, body: string) {
  const response = await request(`${origin}/api/${area}/${method}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', origin },
    body,
  });
  return { status: response.statusCode, json: (await response.body.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const rows = (extra: string) =>
  `{"source":{"kind":"rows","rows":[{"prompt":"a fox","model":"flux-schnell","extra":${extra}}]}}`;

describe('free-form JSON past its limits', () => {
  it.each([
    ['batches.check', 'batches', 'check'],
    ['batches.create', 'batches', 'create'],
  ])('%s: an extra nested 5,000 deep is 400 invalid-argument with a sentence', async (_, a, m) => {
    const reply = await post(a, m, rows(deepText(5_000)));
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({
      code: 'invalid-argument',
      message: `${a}.${m}: source.rows.0.extra: this free-form JSON is nested deeper than 32 levels`,
    });
    expect((await post('batches', 'list', '{}')).json.value.items).toEqual([]);
  });

  it('an extra larger than 64 KiB, and a model entry nested 5,000 deep: 400', async () => {
    const big = await post('batches', 'create', rows(JSON.stringify({ x: 'y'.repeat(70_000) })));
    expect(big.status).toBe(400);
    expect(big.json.error.message).toContain('this free-form JSON is larger than 64 KiB');
    const model = await post('models', 'saveUserEntries', `{"entries":[${deepText(5_000)}]}`);
    expect(model.status).toBe(400);
    expect(model.json.error).toMatchObject({
      code: 'invalid-argument',
      message:
        'models.saveUserEntries: entries.0: this free-form JSON is nested deeper than 32 levels',
    });
  });

  it('a prompt file whose row is nested 5,000 deep: that row refused, nothing created', async () => {
    const text = `{"prompt":"a fox","model":"flux-schnell","vendor":${deepText(5_000)}}\n`;
    const body = JSON.stringify({ source: { kind: 'text', fileName: 'p.jsonl', text } });
    const reply = await post('batches', 'create', body);
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe('prompt-file');
    expect(reply.json.error.details.rows).toEqual([
      {
        line: 1,
        code: 'field',
        message: 'its model-private fields (vendor): this JSON is nested deeper than 32 levels',
      },
    ]);
    expect((await post('batches', 'list', '{}')).json.value.items).toEqual([]);
  });

  it('through dispatch (as IPC calls it): the same refusal', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5_000; i++) deep = { a: deep };
    const { service } = opened;
    const result = await dispatch(
      service.api,
      'batches',
      'check',
      { source: { kind: 'rows', rows: [{ prompt: 'a fox', extra: { deep } }] } },
      { toApiError: (error) => service.toApiError(error) },
    );
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'invalid-argument',
        message:
          'batches.check: source.rows.0.extra: this free-form JSON is nested deeper than 32 levels',
      },
    });
  });
});

describe('exports.start from the page', () => {
  it('cannot name where a zip is written: 400 with a sentence, nothing written', async () => {
    const elsewhere = path.join(dir, 'elsewhere.zip');
    const reply = await post(
      'exports',
      'start',
      JSON.stringify({ source: { query: {} }, destination: elsewhere }),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toMatch(
      /^exports\.start: destination: the page cannot choose where a zip is written/,
    );
    expect(existsSync(elsewhere)).toBe(false);
    // without one, the zip goes to the library's Exports folder
    const started = await post('exports', 'start', JSON.stringify({ source: { query: {} } }));
    expect(started.status).toBe(200);
    expect(path.dirname(started.json.value.path)).toBe(path.join(dir, 'library', 'Exports'));
  });
});
