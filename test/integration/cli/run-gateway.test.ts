import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startGateway,
  type GatewayOptions,
  type RunningGateway,
} from '../../../main/simulator/index.ts';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import { RATE_LIMIT_PAUSE_AFTER } from '../../../main/core/engine/adaptive-concurrency.ts';
import { runCli, startCli, summaryOf, workspace } from './harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

const CSV = `prompt,size,n,seed
A red fox,64x64,1,7
Two blue birds,64x64,2,8
A green hill,64x64,1,9
`;

// flux-schnell, n > 1: the simulator's `partial` fault returns half of the images
const SHORT_CSV = `prompt,size,n,seed
A red fox,64x64,1,7
Four grey cats,64x64,4,8
`;

let ws: ReturnType<typeof workspace>;
let gateway: RunningGateway;
let started: RunningGateway | undefined;
const simulator = async (options: GatewayOptions = {}) =>
  (gateway = started = await startGateway(options));
afterEach(async () => {
  ws?.remove();
  await started?.close();
  started = undefined;
});

const runArgs = () => [
  'run',
  'p.csv',
  '--gateway',
  gateway.url,
  '--model',
  'flux-schnell',
  '--json',
];

describe('atelier run --gateway (a simulator started by the test)', () => {
  it('reports failed downloads (exit 1); retry --downloads fetches every one again, expired links included, without generating again', async () => {
    await simulator({ faults: 'url-404:1' });
    ws = workspace({ 'p.csv': CSV });
    const first = await runCli(runArgs(), { cwd: ws.dir, key: gateway.key });
    expect(first.code).toBe(1);
    const summary = summaryOf(first);
    expect(summary.jobs).toMatchObject({ succeeded: 3, failed: 0 });
    expect(summary.images).toMatchObject({
      written: 0,
      onDisk: 0,
      failedDownloads: 4,
      expiredLinks: 4,
    });
    expect(summary.requestsSent).toBe(3);
    const generations = gateway.ledger.entries().length;
    expect(generations).toBe(3);

    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toContain('4 failed on an expired link');

    // two of the four failed on the file server instead
    const db = new Database(ws.path('.atelier-data', 'atelier.db'));
    db.prepare(
      `UPDATE images SET failure_code = 'file_server_error', failure_reason = 'The file server failed.'
       WHERE id IN (SELECT id FROM images ORDER BY id LIMIT 2)`,
    ).run();
    db.close();

    // every one is asked again; the first link asked still answers 404 (the 5th file request)
    gateway.setFaults('url-404@5');
    // the saved gateway of the data folder is used: no --gateway here
    const retry = await runCli(['retry', '--downloads'], { cwd: ws.dir, key: gateway.key });
    expect(retry.code).toBe(1);
    expect(retry.stderr).toContain(
      'Queued again: 4 download(s), 2 of them with a link that had expired',
    );
    expect(retry.stderr).not.toContain('Not queued');
    expect(retry.stdout).toContain('1 could not be downloaded because the link had expired.');
    expect(retry.stdout).toMatch(/atelier retry --downloads +fetches the 1 failed download/);
    expect(ws.files('atelier-library', 'p')).toHaveLength(3);

    const after = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect(after.batches[0]).toMatchObject({ expiredLinks: 1 });
    // again: the last one answers now
    gateway.setFaults('');
    const again = await runCli(['retry', '--downloads', '--json'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(summaryOf(again).images).toMatchObject({
      written: 1,
      onDisk: 4,
      failedDownloads: 0,
      expiredLinks: 0,
    });
    expect(summaryOf(again).requestsSent).toBe(0);
    // not one generation more
    expect(gateway.ledger.entries()).toHaveLength(generations);
    expect(ws.files('atelier-library', 'p')).toHaveLength(4);
  });

  it('reports links that expired before the download apart, and retry --downloads asks them again', async () => {
    await simulator({ urlTtlMs: 1 });
    ws = workspace({ 'p.csv': CSV });
    const result = await runCli(runArgs().slice(0, -1), { cwd: ws.dir, key: gateway.key });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('4 could not be downloaded because the link had expired.');
    expect(result.stdout).toContain('Link expired:\n  #1 "A red fox", image 1\n');
    expect(result.stdout).toContain('#2 "Two blue birds", image 2');
    expect(result.stdout).toMatch(
      /atelier retry --downloads +fetches the 4 failed download\(s\) again \(4 whose link had expired: some stores answer later\)/,
    );
    expect(result.stdout).toContain('"atelier retry --failed" does not apply');
    expect(result.stdout).toContain('run those prompts again with "atelier run"');
    expect(result.stdout).not.toMatch(/^ +\d+ could not be downloaded\.$/m);

    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: gateway.key });
    expect(resumed.code).toBe(1);
    expect(summaryOf(resumed)).toMatchObject({
      exitCode: 1,
      images: { onDisk: 0, failedDownloads: 4, expiredLinks: 4 },
      partial: { jobs: 0, missingImages: 0 },
    });

    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).batches[0]).toMatchObject({
      downloads: { failed: 4, done: 0 },
      expiredLinks: 4,
    });
    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toContain('images:  0 on disk, 4 failed on an expired link\n');

    // asked for: every link is tried again; still expired, each stays failed with its reason
    const rows = () => {
      const db = new Database(ws.path('.atelier-data', 'atelier.db'), { readonly: true });
      try {
        return db
          .prepare('SELECT failure_code, failure_reason, download_tries, updated_at FROM images')
          .all() as Array<{
          failure_code: string;
          failure_reason: string;
          download_tries: number;
          updated_at: number;
        }>;
      } finally {
        db.close();
      }
    };
    const before = Math.max(...rows().map((row) => row.updated_at));
    const retry = await runCli(['retry', '--downloads', '--json'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(retry.code).toBe(1);
    expect(summaryOf(retry)).toMatchObject({
      images: { written: 0, onDisk: 0, failedDownloads: 4, expiredLinks: 4 },
      requestsSent: 0,
    });
    const after = rows();
    expect(after).toHaveLength(4);
    for (const row of after) {
      expect(row).toMatchObject({ failure_code: 'url-expired', download_tries: 1 });
      expect(row.failure_reason).toMatch(/expired/);
      // asked again: changed by this retry
      expect(row.updated_at).toBeGreaterThan(before);
    }
    expect(gateway.ledger.entries()).toHaveLength(3);
  });

  it('reports a prompt that returned fewer images than asked: exit 1, in the summary and status', async () => {
    await simulator({ faults: 'partial:1' });
    ws = workspace({ 'p.csv': SHORT_CSV });
    const result = await runCli(runArgs().slice(0, -1), { cwd: ws.dir, key: gateway.key });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('2 of 2 prompts succeeded, 3 images written; not everything');
    expect(result.stdout).toContain('2 not returned: 1 prompt(s) got fewer images than asked.');
    expect(result.stdout).toMatch(/atelier retry --partial +asks for the 2 image\(s\)/);

    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).batches[0]).toMatchObject({
      jobs: { succeeded: 2, total: 2 },
      downloads: { done: 3 },
      partial: { jobs: 1, missingImages: 2 },
    });
    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toContain(
      'short:   1 prompt(s) returned 2 image(s) fewer than asked; ' +
        '"atelier retry --partial --batch 1" asks for them',
    );
  });

  it('retry --partial asks for the missing images, numbered after the first, until none is missing', async () => {
    await simulator({ faults: 'partial:1' });
    ws = workspace({ 'p.csv': SHORT_CSV });
    const first = await runCli(runArgs(), { cwd: ws.dir, key: gateway.key });
    expect(first.code).toBe(1);
    expect(summaryOf(first)).toMatchObject({
      exitCode: 1,
      jobs: { succeeded: 2, total: 2 },
      images: { onDisk: 3, failedDownloads: 0 },
      partial: { jobs: 1, missingImages: 2 },
    });

    // the top-up comes back short too: it is counted like any job
    const retry = ['retry', '--partial', '--json'];
    const short = await runCli(retry, { cwd: ws.dir, key: gateway.key });
    expect(short.code).toBe(1);
    expect(summaryOf(short)).toMatchObject({
      requestsSent: 1,
      images: { written: 1, onDisk: 4 },
      partial: { jobs: 1, missingImages: 1 },
    });

    gateway.setFaults([]);
    const whole = await runCli(retry, { cwd: ws.dir, key: gateway.key });
    expect(whole.code).toBe(0);
    expect(summaryOf(whole)).toMatchObject({
      exitCode: 0,
      requestsSent: 1,
      jobs: { total: 4, succeeded: 4 },
      images: { written: 1, onDisk: 5 },
      partial: { jobs: 0, missingImages: 0 },
      topUps: 2,
    });
    expect(ws.files('atelier-library', 'p')).toEqual([
      '0001-a-red-fox-flux-schnell-64x64-7.png',
      '0002-four-grey-cats-flux-schnell-64x64-8_1.png',
      '0002-four-grey-cats-flux-schnell-64x64-8_2.png',
      '0002-four-grey-cats-flux-schnell-64x64-8_3.png',
      '0002-four-grey-cats-flux-schnell-64x64-8_4.png',
    ]);
    const charged = gateway.ledger.entries().map((entry) => entry.units);
    expect(charged.sort()).toEqual([1, 1, 1, 2]);

    const nothing = await runCli(['retry', '--partial', '--batch', '1'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(nothing.code).toBe(0);
    // the two prompts are not counted as four
    expect(nothing.stdout).toContain('all 4 requests (2 prompts, 2 top-ups) succeeded');
    expect(nothing.stderr).toContain(
      'Queued again: 0 prompt(s) that returned fewer images than asked, for their 0 missing',
    );
    expect(nothing.stdout).not.toContain('retry --partial');
    expect(gateway.ledger.entries()).toHaveLength(charged.length);
  });

  it('pauses on a refused key: exit 1 with the reason, nothing charged', async () => {
    await simulator();
    ws = workspace({ 'p.csv': CSV });
    const result = await runCli(runArgs(), { cwd: ws.dir, key: 'sk-not-a-real-key' });
    expect(result.code).toBe(1);
    const summary = summaryOf(result);
    expect(summary.outcome).toBe('paused');
    expect(summary.paused).toMatchObject({ kind: 'auth', code: 'invalid_api_key' });
    expect(summary.paused?.reason).toMatch(/API key/);
    expect(summary.jobs).toMatchObject({ queued: 3, failed: 0, succeeded: 0 });
    expect(gateway.ledger.entries()).toHaveLength(0);
    expect(result.stdout).not.toContain('sk-not-a-real-key');
  });

  it('pauses when the gateway keeps rate limiting (exit 1, "rate-limit"), failing no prompt; resume finishes once it stops', async () => {
    await simulator({ faults: '429:1', retryAfterSeconds: 0.01 });
    const prompts = Array.from({ length: 12 }, (_, i) => `Prompt number ${i + 1},64x64,1,${i}`);
    ws = workspace({ 'p.csv': `prompt,size,n,seed\n${prompts.join('\n')}\n` });
    const result = await runCli(runArgs(), { cwd: ws.dir, key: gateway.key });
    expect(result.code).toBe(1);
    const summary = summaryOf(result);
    expect(summary.outcome).toBe('paused');
    expect(summary.paused).toMatchObject({ kind: 'rate-limit', code: 'rate-limit' });
    expect(summary.paused?.reason).toMatch(/^The gateway keeps rate limiting/);
    expect(summary.jobs).toMatchObject({ failed: 0, succeeded: 0, total: 12 });
    // the pool halves per refused window (8, 4, 2), then a few refusals one at a time
    expect(summary.requestsSent).toBeLessThanOrEqual(2 * 8 + RATE_LIMIT_PAUSE_AFTER);
    expect(gateway.ledger.entries()).toHaveLength(0);

    const status = await runCli(['status'], { cwd: ws.dir });
    expect(status.stdout).toContain('paused (rate-limit): The gateway keeps rate limiting');

    gateway.setFaults('');
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: gateway.key });
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed)).toMatchObject({
      outcome: 'done',
      paused: null,
      jobs: { succeeded: 12, failed: 0 },
      images: { onDisk: 12 },
    });
    expect(gateway.ledger.entries().filter((entry) => entry.state === 'settled')).toHaveLength(12);
  });

  it('pauses when the balance runs out (exit 1, "balance"); resume finishes after a top-up', async () => {
    // flux-schnell costs 300 a picture: the first prompt is paid for, the second is refused
    await simulator({ balance: 500 });
    ws = workspace({ 'p.csv': CSV });
    const result = await runCli([...runArgs(), '--concurrency', '1'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(result.code).toBe(1);
    const summary = summaryOf(result);
    expect(summary.paused).toMatchObject({ kind: 'balance', code: 'insufficient_user_quota' });
    expect(summary.jobs).toMatchObject({ succeeded: 1, queued: 2 });

    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toMatch(/Queue: +paused \(balance\): .*balance/i);

    gateway.ledger.balance = 1_000_000;
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: gateway.key });
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed)).toMatchObject({
      outcome: 'done',
      jobs: { succeeded: 3, queued: 0 },
      images: { onDisk: 4 },
      paused: null,
    });
  });

  it('refuses to run a data folder another process is running (exit 2), importing nothing', async () => {
    // slow enough that the first run still holds the queue while the second starts
    await simulator({ latency: { fixedMs: 2500 } });
    ws = workspace({ 'p.csv': CSV, 'q.csv': 'prompt\nanother\n' });
    const first = startCli(runArgs(), { cwd: ws.dir, key: gateway.key });
    await pollUntil(() => gateway.ledger.entries().length > 0, 'a request reached the gateway');
    const second = await runCli(['run', 'q.csv', '--model', 'flux-schnell', '--json'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/Another Atelier \(process \d+ on .*\) is running this queue/);
    expect((await first.done).code).toBe(0);
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).batches.map((b) => b.name)).toEqual(['p']);
  });

  it('sends the extra headers and the key to the gateway; saves the headers’ names, never a value', async () => {
    // a stand-in gateway that records what arrives and refuses it, which pauses the queue
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      request.resume();
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: 'no', type: 'x', code: 'invalid_api_key' } }),
      );
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ws = workspace({ 'p.csv': 'prompt\nhello\n' });
    const upstream = 'pk-upstream-7c1e4b9a';
    try {
      const result = await runCli(
        [
          'run',
          'p.csv',
          '--gateway',
          url,
          '--model',
          'flux-schnell',
          '--json',
          '--header',
          'X-Route: eu-west',
          '--header',
          `X-Portkey-Api-Key: ${upstream}`,
        ],
        { cwd: ws.dir, key: 'sk-secret-123' },
      );
      expect(result.code).toBe(1);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        'x-route': 'eu-west',
        'x-portkey-api-key': upstream,
        authorization: 'Bearer sk-secret-123',
      });
      expect(result.stdout + result.stderr).not.toContain('sk-secret-123');

      // header values are credentials: a later command needs them again, and says so first
      const refused = await runCli(['resume', '--json'], { cwd: ws.dir, key: 'sk-secret-123' });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /needs its extra headers X-Route, X-Portkey-Api-Key, .*--header, or set ATELIER_GATEWAY_HEADERS/,
      );
      expect(seen).toHaveLength(1);

      // given again (one by --header, one by the environment): the next command lifts the
      // pause it finds, and --json says so too
      const again = await runCli(['resume', '--json', '--header', 'X-Route: eu-north'], {
        cwd: ws.dir,
        key: 'sk-secret-123',
        env: { ATELIER_GATEWAY_HEADERS: JSON.stringify({ 'X-Portkey-Api-Key': upstream }) },
      });
      expect(again.code).toBe(1);
      expect(summaryOf(again).notes).toContainEqual(
        expect.stringMatching(/^The queue was paused: .*Continuing\.$/),
      );
      expect(seen).toHaveLength(2);
      expect(seen[1]).toMatchObject({ 'x-route': 'eu-north', 'x-portkey-api-key': upstream });
    } finally {
      server.close();
    }
    const saved = readFileSync(ws.path('.atelier-data', 'settings.json'), 'utf8');
    expect(JSON.parse(saved)).toMatchObject({
      gateway: { kind: 'remote', profile: 'Command line' },
      profiles: [
        {
          name: 'Command line',
          baseUrl: url,
          headers: [{ name: 'X-Portkey-Api-Key' }, { name: 'X-Route' }],
        },
      ],
    });
    for (const secret of ['sk-secret-123', upstream, 'eu-west', 'eu-north']) {
      expect(saved).not.toContain(secret);
    }
  });
});
