import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { runCli, summaryOf, workspace } from './harness.ts';

/** flux-schnell: 300 quota units an image, in the catalogue and on the simulator's ledger. */
const PRICE = 300;

let ws: ReturnType<typeof workspace>;
let gateway: RunningGateway;
afterEach(async () => {
  ws?.remove();
  await gateway?.close();
});

const prompts = (n: number) =>
  Array.from({ length: n }, (_, i) => `a lighthouse at dawn ${i + 1}`).join('\n');

/** What the simulator charged the key, as its ledger route says over HTTP. */
async function ledgerCharged(): Promise<number> {
  const answer = await fetch(`${gateway.url}/_simulator/ledger`, {
    headers: { authorization: `Bearer ${gateway.key}` },
  });
  return ((await answer.json()) as { charged: number }).charged;
}

const run = (args: string[]) =>
  runCli(
    [...args, '--gateway', gateway.url, '--model', 'flux-schnell', '--size', '64x64', '--json'],
    { cwd: ws.dir, key: gateway.key },
  );

describe('what a command may spend', () => {
  it('refuses a batch over the confirmation threshold without --yes or --max-spend', async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.txt': prompts(600) });
    const refused = await run(['run', 'p.txt']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'Nothing was queued: This sends 600 requests and spends about 180,000 quota units: more ' +
        'than 500 requests need your confirmation.',
    );
    expect(refused.stderr).toContain('Add --yes to spend it, or --max-spend UNITS');
    expect(gateway.ledger.entries()).toHaveLength(0);
    const status = await runCli(['status', '--json'], { cwd: ws.dir });
    expect(JSON.parse(status.stdout)).toMatchObject({ batches: [] });
  });

  it('--yes confirms whatever the estimate: the whole batch runs', async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.txt': prompts(12) });
    mkdirSync(ws.path('.atelier-data'));
    writeFileSync(
      ws.path('.atelier-data', 'settings.json'),
      JSON.stringify({ version: 2, confirmSpend: { requests: 5 } }),
    );
    expect((await run(['run', 'p.txt'])).stderr).toContain('more than 5 requests need');
    const confirmed = await run(['run', 'p.txt', '--yes']);
    expect(confirmed.code).toBe(0);
    expect(summaryOf(confirmed)).toMatchObject({ outcome: 'done', jobs: { succeeded: 12 } });
    expect(await ledgerCharged()).toBe(12 * PRICE);
  });

  it('--max-spend confirms and caps the run: it pauses before passing it, charged nothing past it', async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.txt': prompts(600) });
    const capped = await run(['run', 'p.txt', '--max-spend', String(10 * PRICE + 100)]);
    expect(capped.code).toBe(1);
    const summary = summaryOf(capped);
    expect(summary).toMatchObject({
      outcome: 'paused',
      paused: { kind: 'budget', code: 'budget-run' },
      spend: { units: 10 * PRICE, uncertainUnits: 0 },
      jobs: { succeeded: 10 },
    });
    expect(await ledgerCharged()).toBe(10 * PRICE);

    // the next command's own cap counts from its start
    const more = await runCli(['resume', '--max-spend', String(5 * PRICE), '--json'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(summaryOf(more)).toMatchObject({
      outcome: 'paused',
      spend: { units: 5 * PRICE },
    });
    expect(await ledgerCharged()).toBe(15 * PRICE);
  });

  it("keeps the data folder's saved caps, and runs past one only with --over-budget", async () => {
    gateway = await startGateway({ latencyMs: 0 });
    ws = workspace({ 'p.txt': prompts(10) });
    mkdirSync(ws.path('.atelier-data'));
    writeFileSync(
      ws.path('.atelier-data', 'settings.json'),
      JSON.stringify({ version: 2, budget: { perDay: 4 * PRICE } }),
    );
    const first = await run(['run', 'p.txt']);
    expect(summaryOf(first)).toMatchObject({
      outcome: 'paused',
      paused: { kind: 'budget', code: 'budget-day' },
    });
    expect(summaryOf(first).paused?.reason).toContain("today's cap of 1,200 quota units");
    expect(await ledgerCharged()).toBe(4 * PRICE);

    const again = await runCli(['resume', '--json'], { cwd: ws.dir, key: gateway.key });
    expect(again.code).toBe(1);
    expect(summaryOf(again)).toMatchObject({ outcome: 'paused', requestsSent: 0 });
    expect(summaryOf(again).notes).toContainEqual(
      expect.stringContaining("The queue is paused: The next request would pass today's cap"),
    );
    expect(await ledgerCharged()).toBe(4 * PRICE);

    const anyway = await runCli(['resume', '--over-budget', '--json'], {
      cwd: ws.dir,
      key: gateway.key,
    });
    expect(anyway.code).toBe(0);
    expect(summaryOf(anyway)).toMatchObject({ outcome: 'done', spend: { units: 6 * PRICE } });
    expect(await ledgerCharged()).toBe(10 * PRICE);
  });
});
