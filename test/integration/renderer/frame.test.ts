import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { launchChromium } from '../../support/browser.ts';
import { NO_SPEND } from '../../support/spend-fixtures.ts';
import { pollUntil } from '../../support/poll-until.ts';

const zeroJobs = { queued: 0, running: 0, retrying: 0, succeeded: 0, failed: 0, canceled: 0 };
const zeroDownloads = { pending: 0, downloading: 0, done: 0, failed: 0 };
const progress = (jobs: Partial<typeof zeroJobs>) => ({
  jobs: { ...zeroJobs, ...jobs },
  downloads: zeroDownloads,
  inFlight: 0,
  downloading: 0,
  jobsPerSecond: 42,
  requestsSent: 0,
  imagesWritten: 0,
  bytesWritten: 0,
  spentToday: NO_SPEND,
});
const DEMO = 'Demo mode: images come from the built-in simulator, nothing is charged.';
const PAUSED = { reason: 'The gateway refused the key', code: 'invalid_api_key', kind: 'auth' };

/** What the fake web host answers, by "area/method". */
const answers: Record<string, unknown> = {
  'app/info': {
    version: '0.1.0',
    host: 'web',
    demo: true,
    notice: DEMO,
    gateway: null,
    capabilities: { pathImport: true, reveal: false, openWithViewer: false, notifications: false },
    recoveredSettings: null,
  },
  'settings/get': {},
  'key/status': { set: false, last4: null, source: null, storable: false, refusal: null },
  'queue/state': {
    paused: PAUSED,
    engine: 'running',
    runner: null,
    problem: null,
    limits: { concurrency: 8, current: 8, requestsPerMinute: null },
    progress: progress({ queued: 5 }),
  },
  'batches/list': {
    items: [
      {
        id: 1,
        name: 'cats',
        source: 'cats.csv',
        createdAt: 1,
        paused: false,
        pauseReason: null,
        priority: 0,
        jobCount: 5,
        dirName: 'cats',
        jobs: { ...zeroJobs, queued: 5 },
        downloads: zeroDownloads,
      },
    ],
    next: null,
  },
  'queue/resume': null,
};

/**
 * The built renderer in Chromium against a fake web host over real HTTP and SSE: the frame
 * loads what it shows through the contract, and events move it.
 */
describe('the renderer’s frame in a browser', () => {
  let outDir: string;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const calls: string[] = [];
  const streams: ServerResponse[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'atelier-renderer-'));
    await build({
      configFile: false,
      logLevel: 'silent',
      root: resolve('renderer'),
      base: './',
      plugins: [react()],
      build: { outDir, emptyOutDir: true },
    });
    server = createServer((req, res) => void serve(req.method!, req.url!, res));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => problems.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const stream of streams) stream.end();
    await new Promise((done) => server?.close(done));
    await rm(outDir, { recursive: true, force: true });
  });

  async function serve(method: string, url: string, res: ServerResponse): Promise<void> {
    const path = new URL(url, 'http://x').pathname;
    if (method === 'GET' && path === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': open\n\n');
      // as the service's hub does: a first delivery at once, the queue's progress
      res.write(
        `id: c0\ndata: ${JSON.stringify([{ type: 'progress', payload: { ...progress({ queued: 5 }), paused: PAUSED, batches: [] } }])}\n\n`,
      );
      streams.push(res);
      return;
    }
    if (method === 'POST' && path === '/api/session') {
      // the one-time code of the address, traded for this tab's session
      const grant = { token: 'fake-token-0123456789', sessionId: 's', mediaKey: 'a2V5' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, value: grant }));
      return;
    }
    if (method === 'POST' && path.startsWith('/api/')) {
      const name = path.slice('/api/'.length);
      calls.push(name);
      const body =
        name in answers
          ? { ok: true, value: answers[name] }
          : { ok: false, error: { code: 'internal', message: `${name} is not faked` } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      // as the service does: a resume is told to every window
      if (name === 'queue/resume') send('r1', [{ type: 'queue.resumed', payload: {} }]);
      return;
    }
    const file = join(outDir, path === '/' ? 'index.html' : path);
    const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }[
      extname(file)
    ];
    const bytes = await readFile(file).catch(() => null);
    if (!bytes) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': type ?? 'application/octet-stream' }).end(bytes);
  }

  function send(cursor: string, events: ApiEvent[]): void {
    for (const stream of streams)
      stream.write(`id: ${cursor}\ndata: ${JSON.stringify(events)}\n\n`);
  }

  it('shows the demo notice, the paused queue with its reason, and the batches', async () => {
    await page.goto(`${origin}/#/queue?code=fake`);
    await expect(page.getByRole('note', { name: 'Demo mode' }).textContent()).resolves.toContain(
      DEMO,
    );
    await page.getByRole('region', { name: 'Queue paused' }).waitFor();
    await page.getByRole('contentinfo').getByText(PAUSED.reason).waitFor();
    await page.getByRole('listitem', { name: 'cats' }).waitFor();
    await expect(page.getByRole('progressbar', { name: 'Overall progress' }).count()).resolves.toBe(
      1,
    );
    expect(calls).toEqual(
      expect.arrayContaining(['app/info', 'queue/state', 'batches/list', 'settings/get']),
    );
  });

  it('resumes the queue with the Resume button', async () => {
    await page
      .getByRole('region', { name: 'Queue paused' })
      .getByRole('button', { name: 'Resume' })
      .click();
    await pollUntil(() => calls.includes('queue/resume'), 'queue.resume was called');
    await page.getByRole('button', { name: 'Pause queue' }).waitFor();
  });

  it('moves progress and batch counts with events, and toasts a finished batch', async () => {
    await pollUntil(() => streams.length > 0, 'the page listens to /api/events');
    const jobs = { ...zeroJobs, succeeded: 4, failed: 1 };
    send('c1', [
      {
        type: 'progress',
        payload: {
          ...progress({ succeeded: 4, failed: 1 }),
          paused: null,
          batches: [{ id: 1, jobs, downloads: zeroDownloads, spent: NO_SPEND }],
        },
      },
      {
        type: 'batch.finished',
        payload: {
          batchId: 1,
          name: 'cats',
          jobs,
          failures: { uncertain: 1 },
          downloads: zeroDownloads,
          partial: 0,
        },
      },
    ]);
    await page.getByRole('contentinfo').getByText('4 done · 1 failed / 5').waitFor();
    await page.getByText('Batch “cats” finished').waitFor();
    await page.getByText('4 done, 1 failed (1 uncertain: may have been charged)').waitFor();
    await page.getByRole('button', { name: 'Close toast' }).click();
    await page.getByText(/Batch “cats” finished/).waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });
});
