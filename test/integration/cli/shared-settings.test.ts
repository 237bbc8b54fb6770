import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { runCli, summaryOf, workspace } from './harness.ts';

// The app's service and the CLI on one data folder: openTestService keeps it in <dir>/data.
let ws: ReturnType<typeof workspace>;
let gateway: RunningGateway | undefined;
let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  await gateway?.close();
  gateway = undefined;
  ws?.remove();
});

const CSV = 'prompt,size\na red fox,64x64\ntwo blue birds,64x64\n';

describe('the CLI and the app share the data folder’s settings', () => {
  it('a gateway chosen in the app is the one `atelier run` uses, with no flag', async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.csv': CSV });
    service = await openTestService(ws.dir);
    await service.api.settings.update({
      profiles: [{ name: 'Studio', baseUrl: gateway.url, headers: [] }],
      gateway: { kind: 'remote', profile: 'Studio' },
    });
    await service.close();
    service = undefined;

    const run = await runCli(['run', 'p.csv', '--data', 'data', '--model', 'flux-schnell'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/demo/i);
    expect(run.stderr).toContain(`Sending requests to ${gateway.url}.`);
    expect(gateway.ledger.entries()).toHaveLength(2);
    // the library the app named for the folder, not ./atelier-library
    expect(ws.files('library', 'p').filter((f) => f.endsWith('.png'))).toHaveLength(2);
  });

  it('a gateway the CLI ran with is the one the app opens with', async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.csv': CSV });
    const run = await runCli(
      [
        'run',
        'p.csv',
        '--data',
        'data',
        '--out',
        'library',
        '--gateway',
        gateway.url,
        '--model',
        'flux-schnell',
      ],
      { cwd: ws.dir, key: gateway.key },
    );
    expect(run.code, run.stderr).toBe(0);
    service = await openTestService(ws.dir);
    const settings = await service.api.settings.get({});
    expect(settings.gateway).toEqual({ kind: 'remote', profile: 'Command line' });
    expect(settings.profiles).toMatchObject([{ name: 'Command line', baseUrl: gateway.url }]);
    expect(settings.library).toBe(ws.path('library'));
    // the same images, in the app's gallery
    expect((await service.api.images.count({ query: {} })).total).toBe(2);
  });

  it('with no gateway chosen and no flag, runs on the demo and says so in its first line', async () => {
    ws = workspace({ 'p.csv': CSV });
    const run = await runCli(['run', 'p.csv'], { cwd: ws.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(
      'No gateway is chosen for this data folder, so the embedded demo gateway answers ' +
        '(nothing is charged); choose one with --gateway URL or in the app’s Settings.',
    );
    const json = await runCli(['run', 'p.csv', '--json'], { cwd: ws.dir });
    expect(json.code).toBe(0);
    expect(summaryOf(json).notes[0]).toMatch(/^No gateway is chosen for this data folder/);
    // a new CLI folder writes no extra files until asked, as before
    expect(ws.files('atelier-library', 'p')).toEqual([
      '0001-a-red-fox-flux-schnell-64x64.png',
      '0002-two-blue-birds-flux-schnell-64x64.png',
    ]);
  });

  it('saves the flags given where the app reads them, and the app hears it while open', async () => {
    ws = workspace({ 'p.csv': CSV });
    service = await openTestService(ws.dir, { watchIntervalMs: 20 });
    const events: ApiEvent[] = [];
    const stop = service.service.events.subscribe(null, (batch) => events.push(...batch.events));
    try {
      const run = await runCli(
        ['run', 'p.csv', '--data', 'data', '--demo', '--concurrency', '3', '--sidecar'],
        { cwd: ws.dir },
      );
      expect(run.code, run.stderr).toBe(0);
      await pollUntil(
        () => events.some((e) => e.type === 'settings.changed'),
        'the open service heard the CLI’s change',
      );
      expect(await service.api.settings.get({})).toMatchObject({
        concurrency: 3,
        sidecar: true,
        gateway: { kind: 'demo' },
      });
      // a queue not running here was left alone: the CLI ran it
      expect((await service.api.queue.state({})).engine).toBe('stopped');
    } finally {
      stop();
    }
  });

  it('reads the CLI’s older cli-settings.json once, and status shows the result', async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.csv': CSV });
    mkdirSync(ws.path('data'));
    writeFileSync(
      ws.path('data', 'cli-settings.json'),
      JSON.stringify({
        gateway: { kind: 'remote', baseUrl: gateway.url, extraHeaders: { 'X-Route': 'eu-7' } },
        library: ws.path('pictures'),
        concurrency: 4,
        requestsPerMinute: null,
        template: null,
        sidecar: false,
        manifest: false,
        thumbnails: false,
      }),
    );
    // status reads it without moving anything
    const status = await runCli(['status', '--data', 'data', '--json'], { cwd: ws.dir });
    expect(JSON.parse(status.stdout) as StatusView).toMatchObject({
      gateway: gateway.url,
      library: ws.path('pictures'),
    });
    expect(existsSync(ws.path('data', 'cli-settings.json'))).toBe(true);

    const run = await runCli(['run', 'p.csv', '--data', 'data', '--model', 'flux-schnell'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('cli-settings.json are now in the data folder’s settings.json');
    expect(run.stderr).toContain(
      'The extra headers Command line: X-Route were saved in plain text',
    );
    expect(existsSync(ws.path('data', 'cli-settings.json.migrated'))).toBe(true);
    const saved = readFileSync(ws.path('data', 'settings.json'), 'utf8');
    expect(JSON.parse(saved)).toMatchObject({ concurrency: 4, library: ws.path('pictures') });
    expect(saved).not.toContain('eu-7');
    expect(ws.files('pictures', 'p').filter((f) => f.endsWith('.png'))).toHaveLength(2);
  });
});
