import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startGateway,
  type GatewayOptions,
  type RunningGateway,
} from '../../../main/simulator/index.ts';
import { pollUntil } from '../../support/poll-until.ts';
import { runCli, startCli, summaryOf, workspace } from './harness.ts';

// `atelier prompts`: one prompt a line on stdout, ready for `atelier run`; notes and errors on
// stderr; the gateway's refusals in its own words; Ctrl+C stops the request at once.

let ws: ReturnType<typeof workspace> | null = null;
const gateways: RunningGateway[] = [];
afterEach(async () => {
  ws?.remove();
  ws = null;
  await Promise.all(gateways.splice(0).map((g) => g.close()));
});

async function simulator(options: GatewayOptions = {}) {
  const gateway = await startGateway({ latencyMs: 0, ...options });
  gateways.push(gateway);
  return gateway;
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('atelier prompts', () => {
  it('--demo: the prompts on stdout, one a line, run as they are by atelier run', async () => {
    ws = workspace();
    const asked = await runCli(
      ['prompts', '--theme', 'lighthouses in winter', '--count', '5', '--demo'],
      {
        cwd: ws.dir,
      },
    );
    expect(asked.code).toBe(0);
    expect(asked.stderr).toBe('');
    const prompts = lines(asked.stdout);
    expect(prompts).toHaveLength(5);
    for (const prompt of prompts) expect(prompt).toMatch(/^Lighthouses in winter [a-z]/);
    // the flag is saved in the data folder's settings, as every command saves its flags
    const saved = JSON.parse(readFileSync(ws.path('.atelier-data', 'settings.json'), 'utf8'));
    expect(saved.gateway).toEqual({ kind: 'demo' });

    writeFileSync(ws.path('prompts.txt'), asked.stdout);
    const run = await runCli(['run', 'prompts.txt', '--demo', '--size', '64x64', '--json'], {
      cwd: ws.dir,
    });
    expect(run.code).toBe(0);
    expect(summaryOf(run).jobs.succeeded).toBe(5);
  });

  it('--gateway: a chatty model in tags for a model of models.json; cuts said on stderr', async () => {
    const gateway = await simulator();
    ws = workspace();
    mkdirSync(ws.path('.atelier-data'));
    writeFileSync(
      ws.path('.atelier-data', 'models.json'),
      JSON.stringify([
        { kind: 'image', id: 'short-sdxl', protocol: 'openai', sizes: 'any', maxPromptChars: 50 },
      ]),
    );
    const result = await runCli(
      [
        'prompts',
        '--theme',
        'a night market',
        '--count',
        '3',
        '--style',
        'tags',
        '--model',
        'qwen-plus',
        '--for',
        'short-sdxl',
        '--gateway',
        gateway.url,
      ],
      { cwd: ws.dir, key: gateway.key },
    );
    expect(result.code).toBe(0);
    const prompts = lines(result.stdout);
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) {
      expect(prompt).toMatch(/^a night market, /);
      expect(Array.from(prompt).length).toBeLessThanOrEqual(50);
    }
    // qwen-plus forgets the length asked: each cut is said, by prompt
    expect(lines(result.stderr)).toEqual(
      prompts.map((_, i) =>
        expect.stringMatching(
          new RegExp(
            `^atelier prompts: prompt ${i + 1}: Cut to \\d+ characters, the prompt limit of short-sdxl \\(the model wrote \\d+\\)\\.$`,
          ),
        ),
      ),
    );
    expect(gateway.ledger.entries()).toMatchObject([
      { model: 'qwen-plus', endpoint: '/v1/chat/completions' },
    ]);
  });

  it("a model the key may not use: exit 1 with the gateway's words and what to do", async () => {
    const key = 'sk-images-only-000000000000';
    const gateway = await simulator({ keys: [{ key, models: ['flux-schnell'] }] });
    ws = workspace();
    const result = await runCli(
      ['prompts', '--theme', 'owls', '--model', 'gpt-4o-mini', '--gateway', gateway.url],
      {
        cwd: ws.dir,
        key,
      },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^atelier prompts: The gateway does not let this key use gpt-4o-mini \(403 model_not_allowed: This API key is not allowed to use model "gpt-4o-mini"\.\)\. Choose another text model for prompt help, or allow gpt-4o-mini for the key in the gateway's console\. \(request id req_[0-9a-f]+\)\n$/,
    );
    expect(result.stderr).not.toContain(key);
  });

  it.each([
    [['prompts', '--count', '3', '--demo'], /--theme TEXT is required/],
    [
      ['prompts', '--theme', 'x', '--count', '0', '--demo'],
      /--count must be a whole number from 1 to 100/,
    ],
    [
      ['prompts', '--theme', 'x', '--style', 'haiku', '--demo'],
      /--style must be one of prose, tags/,
    ],
    [
      ['prompts', '--theme', 'x', '--gateway', 'http://127.0.0.1:9'],
      /No API key: set ATELIER_API_KEY/,
    ],
    [
      ['prompts', '--theme', 'x', '--demo', '--model', 'flux-schnell'],
      /flux-schnell is an image model; prompt help needs a text model\./,
    ],
  ])('%j: exit 2, said on stderr', async (args, said) => {
    ws = workspace();
    const result = await runCli(args, { cwd: ws.dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(said);
  });

  it('Ctrl+C stops the request at once: the prompts printed stay, nothing charged, exit 130', async () => {
    const gateway = await simulator({ faults: 'slow:1', slowBodyMs: 30_000 });
    ws = workspace();
    const cli = startCli(
      [
        'prompts',
        '--theme',
        'deserts',
        '--count',
        '60',
        '--model',
        'gpt-4o-mini',
        '--gateway',
        gateway.url,
      ],
      { cwd: ws.dir, key: gateway.key },
    );
    await pollUntil(() => lines(cli.output().stdout).length >= 1, 'a first prompt', {
      timeoutMs: 15_000,
    });
    const at = performance.now();
    cli.child.kill('SIGINT');
    const result = await cli.done;
    await gateway.idle();
    expect(performance.now() - at).toBeLessThan(5_000);
    expect(result.code).toBe(130);
    const printed = lines(result.stdout);
    expect(printed.length).toBeGreaterThanOrEqual(1);
    expect(printed.length).toBeLessThan(60);
    expect(result.stderr).toContain(`stopped with Ctrl+C after ${printed.length} of 60 prompts.`);
    expect(gateway.ledger.entries()).toMatchObject([{ state: 'refunded', charged: 0 }]);
  });
});
