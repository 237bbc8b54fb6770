import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/api/errors.ts';
import type { SessionGrant } from '../../../shared/api/session.ts';
import { signedUrlExpiry } from '../../../shared/api/signed-url.ts';
import type { AppService } from '../../../main/core/app/app-service.ts';
import { silentLogger } from '../../../main/core/logger.ts';
import { signedPath } from '../../../main/web/signed-url.ts';
import { startWebHost, type WebHost } from '../../../main/web/web-host.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { readZip } from '../../support/read-zip.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';
import { openSession } from '../../support/web-login.ts';

let dir: string;
let service: AppService;
let host: WebHost;
let opened: TestService;
let origin: string;
let authorization: string;
let grant: SessionGrant;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-web-export-'));
  opened = await openTestService(dir);
  service = opened.service;
  host = await startWebHost({ app: service, rendererDir: dir, logger: silentLogger });
  origin = new URL(host.url).origin;
  grant = await openSession(host.newAddress());
  authorization = `Bearer ${grant.token}`;
});
afterEach(async () => {
  await host.close();
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call<T>(area: string, method: string, input: unknown): Promise<T> {
  const response = await request(`${origin}/api/${area}/${method}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', origin },
    body: JSON.stringify(input),
  });
  const result = (await response.body.json()) as Result<T>;
  if (!result.ok) throw new Error(`${area}.${method}: ${result.error.message}`);
  return result.value;
}

describe('GET /exports/<id>.zip', () => {
  it('downloads a finished export as an attachment, and nothing else', async () => {
    await service.startQueue();
    const batch = await call<{ id: number }>('batches', 'create', {
      source: { kind: 'text', fileName: 'p.txt', text: 'a red fox\na blue owl\n' },
      defaults: { model: 'flux-schnell', size: '256x256' },
    });
    await pollUntil(
      async () => (await call<{ total: number }>('images', 'count', { query: {} })).total === 2,
      'both images to be written',
    );
    const started = await call<{ id: string; path: string; total: number }>('exports', 'start', {
      source: { query: { batchId: batch.id } },
    });
    expect(started.total).toBe(2);
    await pollUntil(
      async () =>
        (await call<{ state: string }>('exports', 'get', { id: started.id })).state === 'done',
      'the export to finish',
    );

    const url = `${origin}/exports/${started.id}.zip`;
    const response = await request(url, { headers: { authorization } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const name = path.basename(started.path);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    );
    const body = Buffer.from(await response.body.arrayBuffer());
    expect(body.equals(readFileSync(started.path))).toBe(true);
    const entries = await readZip(body);
    expect(entries.map((e) => e.name).at(-1)).toBe('manifest.csv');
    expect(entries).toHaveLength(3);

    // a download link carries no header: the page signs it with its session's media key
    const link = signedPath(grant, `/exports/${started.id}.zip`, signedUrlExpiry(Date.now()));
    const signed = await request(`${origin}${link}`);
    expect(signed.statusCode).toBe(200);
    expect(Buffer.from(await signed.body.arrayBuffer()).equals(body)).toBe(true);
    // without either, nothing
    const stranger = await request(url);
    expect(stranger.statusCode).toBe(401);
    await stranger.body.dump();
    for (const wrong of ['nope.zip', `${started.id}.tar`, '..%2Fdata%2Fatelier.db']) {
      const refused = await request(`${origin}/exports/${wrong}`, { headers: { authorization } });
      expect(refused.statusCode).toBe(404);
      await refused.body.dump();
    }
    rmSync(started.path);
    const gone = await request(url, { headers: { authorization } });
    expect(gone.statusCode).toBe(404);
    expect(await gone.body.text()).toContain('no longer at');
  });
});
