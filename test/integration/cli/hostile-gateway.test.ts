import { afterEach, describe, expect, it } from 'vitest';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import {
  htmlThenPictures,
  linkAnswer,
  startHostileGateway,
  type HostileGateway,
} from '../../support/hostile-gateway.ts';
import { makeImage } from '../../support/library-fixtures.ts';
import { runCli, startCli, summaryOf, workspace } from './harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

// The CLI in front of a gateway that misbehaves: refusals at start, limits as flags, Ctrl+C.

let ws: ReturnType<typeof workspace> | undefined;
let gateway: HostileGateway | undefined;
afterEach(async () => {
  ws?.remove();
  await gateway?.close();
  ws = undefined;
  gateway = undefined;
});

const KEY = 'sk-hostile-cli-0000';

describe('headers Atelier must set itself', () => {
  it.each([
    'Content-Length: 5',
    'Host: evil.example',
    'Transfer-Encoding: chunked',
    'Connection: close',
  ])('--header %j is refused at start with exit 2, nothing sent', async (header) => {
    gateway = await startHostileGateway((_req, res) => void res.writeHead(500).end());
    ws = workspace({ 'p.txt': 'a prompt\n' });
    const result = await runCli(
      ['run', 'p.txt', '--gateway', gateway.url, '--model', 'flux-schnell', '--header', header],
      { cwd: ws.dir, key: KEY },
    );
    expect(result.code).toBe(2);
    const name = header.slice(0, header.indexOf(':'));
    expect(result.stderr).toContain(`--header ${name}`);
    expect(result.stderr).toMatch(/Atelier sets it itself/);
    expect(gateway.requests).toEqual([]);
  });
});

describe('limit flags', () => {
  it.each([
    ['--max-image-mb', '0'],
    ['--max-video-mb', 'lots'],
    ['--download-idle-s', '0'],
    ['--max-answer-mb', '100000'],
  ])('%s %s is a usage error (exit 2)', async (flag, value) => {
    ws = workspace({ 'p.txt': 'a prompt\n' });
    const result = await runCli(['run', 'p.txt', '--demo', flag, value], { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${flag} must be a whole number from 1 to`);
  });

  it('--max-image-mb caps a download; the summary and status say why it failed', async () => {
    gateway = await startHostileGateway((req, res, { url }) => {
      if (req.method === 'POST') return linkAnswer(res, [`${url}/files/big.png`]);
      res.writeHead(200, {
        'content-type': 'image/png',
        'content-length': String(3 * 1024 * 1024),
      });
      res.end(Buffer.alloc(3 * 1024 * 1024));
    });
    ws = workspace({ 'p.txt': 'a prompt\n' });
    const result = await runCli(
      ['run', 'p.txt', '--gateway', gateway.url, '--model', 'flux-schnell', '--max-image-mb', '1'],
      { cwd: ws.dir, key: KEY },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /Downloads that failed:\n {2}#1 "a prompt", image 1: .*larger than the 1 MB limit/,
    );
    // one download, not retried
    expect(gateway.requests.filter((line) => line.startsWith('GET'))).toHaveLength(1);
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).batches[0]?.downloads).toMatchObject({ failed: 1, done: 0 });
  });
});

describe('Ctrl+C during a download that stalls', () => {
  it('the first press stops the download too, after the 1.5 s grace: the image waits for resume', async () => {
    gateway = await startHostileGateway((req, res, { url }) => {
      if (req.method === 'POST') return linkAnswer(res, [`${url}/files/stuck.png`]);
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.from([0x89, 0x50, 0x4e, 0x47])); // then nothing, for ever
    });
    const sim = gateway;
    ws = workspace({ 'p.txt': 'a prompt\n' });
    const cli = startCli(['run', 'p.txt', '--gateway', sim.url, '--model', 'flux-schnell'], {
      cwd: ws.dir,
      key: KEY,
    });
    await pollUntil(
      () => sim.requests.some((line) => line.startsWith('GET')),
      'the download started',
    );
    const pressed = Date.now();
    cli.child.kill('SIGINT');
    const result = await cli.done;
    expect(Date.now() - pressed).toBeLessThan(5_000); // the grace, then the process exits
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('Paused by Ctrl+C');

    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    const [batch] = (status as StatusView).batches;
    expect(batch?.jobs).toMatchObject({ succeeded: 1 });
    expect(batch?.downloads).toMatchObject({ pending: 1, failed: 0, done: 0 });
  });
});

describe('a link that gives something that is not an image', () => {
  it('run exits 1 saying so; retry --failed asks for that image alone, once, and everything is on disk', async () => {
    const sim = htmlThenPictures(await makeImage('png', 16, 16));
    gateway = await startHostileGateway(sim.handler);
    ws = workspace({ 'p.txt': 'a lighthouse\n' });
    const flags = ['--gateway', gateway.url, '--model', 'flux-schnell', '--size', '256x256'];
    const run = await runCli(['run', 'p.txt', ...flags, '--n', '2', '--json'], {
      cwd: ws.dir,
      key: KEY,
    });
    expect(run.code).toBe(1);
    expect(summaryOf(run).images).toMatchObject({ onDisk: 1, failedDownloads: 1, notImages: 1 });

    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toContain('1 not an image');

    const retry = await runCli(['retry', '--failed', ...flags.slice(0, 2)], {
      cwd: ws.dir,
      key: KEY,
    });
    expect(retry.stderr).toMatch(/1 image\(s\) whose link gave no image, as new requests/);
    expect(retry.code).toBe(0);
    expect(sim.generations()).toBe(2);
    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).batches[0]?.downloads).toMatchObject({ failed: 0, done: 2 });
    expect(ws.files('atelier-library', 'p')).toHaveLength(2);
  });
});
