import { afterEach, describe, expect, it } from 'vitest';
import type { StatusView } from '../../../main/cli/status/status-view.ts';
import { startGateway, type RunningGateway } from '../../../main/simulator/index.ts';
import { runCli, startCli, summaryOf, workspace, type CliChild } from './harness.ts';
import { pollUntil } from '../../support/poll-until.ts';

const csv = (rows: number) =>
  `prompt,size\n${Array.from({ length: rows }, (_, i) => `picture ${i + 1},64x64`).join('\n')}\n`;

let ws: ReturnType<typeof workspace>;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  ws?.remove();
  await gateway?.close();
  gateway = undefined;
});

/** A run whose first two requests are at the gateway, answered only after `latencyMs`. */
async function slowRun(latencyMs: number, rows: number, extraFlags: string[] = []) {
  const sim = (gateway = await startGateway({ latency: { fixedMs: latencyMs } }));
  ws = workspace({ 'p.csv': csv(rows) });
  const cli = startCli(
    [
      ...['run', 'p.csv', '--gateway', sim.url, '--model', 'flux-schnell', '--concurrency', '2'],
      ...extraFlags,
    ],
    { cwd: ws.dir, key: sim.key },
  );
  // two requests have reached the gateway and are being worked on
  await pollUntil(() => sim.ledger.entries().length === 2, 'two requests are in flight');
  return { sim, cli };
}

/**
 * Ctrl+C, then (once `firstTookHold` resolves) Ctrl+C again; the result, and how long the
 * process took to leave after the second press.
 */
async function pressCtrlCTwice(cli: CliChild, firstTookHold: () => Promise<void>) {
  cli.child.kill('SIGINT');
  await firstTookHold();
  const sentAt = Date.now();
  cli.child.kill('SIGINT');
  const result = await cli.done;
  return { result, leftAfterMs: Date.now() - sentAt };
}

describe('Ctrl+C during atelier run', () => {
  it('pauses cleanly on the first: in-flight requests finish, then resume completes the batch', async () => {
    const { sim, cli } = await slowRun(700, 6);
    cli.child.kill('SIGINT');
    const result = await cli.done;

    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/Pausing: no new requests; waiting for the 2 in flight/);
    expect(result.stdout).toContain('Paused by Ctrl+C');
    expect(result.stdout).toContain('atelier resume');
    // the two in flight were allowed to finish and were paid for; nothing else was sent
    expect(sim.ledger.entries().map((e) => e.state)).toEqual(['settled', 'settled']);

    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    expect((status as StatusView).paused).toMatchObject({ kind: 'manual' });
    expect((status as StatusView).batches[0]?.jobs).toMatchObject({ succeeded: 2, queued: 4 });

    sim.setLatency({ fixedMs: 0 }); // the rest needs no slow answers
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: sim.key });
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed)).toMatchObject({
      outcome: 'done',
      jobs: { succeeded: 6, queued: 0, failed: 0 },
      requestsSent: 4,
      paused: null,
    });
    // every prompt was generated exactly once
    expect(sim.ledger.entries()).toHaveLength(6);
    expect(ws.files('atelier-library', 'p')).toHaveLength(6);
  });

  it('exits at once on the second; the requests cut off become uncertain and are resent only when asked', async () => {
    const { sim, cli } = await slowRun(1500, 4);
    const { result, leftAfterMs } = await pressCtrlCTwice(cli, () =>
      pollUntil(() => cli.output().stderr.includes('Pausing'), 'the signal is heard'),
    );
    expect(leftAfterMs).toBeLessThan(1000); // did not wait for the 1.5 s requests
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Stopped at once');

    // resume: the two cut off may have been charged, so they fail as uncertain, not resent
    sim.setLatency({ fixedMs: 0 }); // the rest needs no slow answers
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: sim.key });
    expect(resumed.code).toBe(1);
    const summary = summaryOf(resumed);
    expect(summary.jobs).toMatchObject({ succeeded: 2, failed: 2 });
    expect(summary.failures).toEqual({ uncertain: 2 });
    expect(summary.requestsSent).toBe(2);
    expect(sim.ledger.entries()).toHaveLength(4);

    const human = await runCli(['status'], { cwd: ws.dir });
    expect(human.stdout).toContain('prompts: 2 succeeded, 2 failed (of 4)');

    const retried = await runCli(['retry', '--uncertain', '--json'], { cwd: ws.dir, key: sim.key });
    expect(retried.code).toBe(0);
    expect(summaryOf(retried).jobs).toMatchObject({ succeeded: 4, failed: 0 });
    expect(sim.ledger.entries()).toHaveLength(6);
  });
});

// The second Ctrl+C leaves without waiting for the requests in flight, but still prints the
// summary: a script reading `--json` must get its object.

/** With --json nothing is said on stderr: the first Ctrl+C shows as the queue's pause. */
async function waitForPause(timeoutMs: number): Promise<void> {
  await pollUntil(
    async () => {
      const status = await runCli(['status', '--json'], { cwd: ws.dir });
      return (JSON.parse(status.stdout) as StatusView).paused !== null;
    },
    'the first Ctrl+C paused the queue',
    { timeoutMs, intervalMs: 0 },
  );
}

describe('a second Ctrl+C', () => {
  it('with --json, prints one summary object of what the database holds, exits 130, and resume carries on', async () => {
    const { sim, cli } = await slowRun(4000, 4, ['--json']);
    const { result, leftAfterMs } = await pressCtrlCTwice(cli, () => waitForPause(2500));
    expect(leftAfterMs).toBeLessThan(1500); // did not wait for the 4 s requests
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Stopped at once');

    const summary = summaryOf(result); // exactly one JSON object on stdout
    expect(summary).toMatchObject({
      outcome: 'interrupted',
      exitCode: 130,
      batch: { name: 'p' },
      // the two cut off are still running in the database; the next start settles them
      jobs: { queued: 2, running: 2, succeeded: 0, failed: 0, total: 4 },
      images: { onDisk: 0 },
      paused: { code: 'manual', kind: 'manual' },
    });
    expect(sim.ledger.entries()).toHaveLength(2);

    // resume: the two cut off may have been charged, so they fail as uncertain, not resent
    sim.setLatency({ fixedMs: 0 }); // the rest needs no slow answers
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: sim.key });
    expect(resumed.code).toBe(1);
    expect(summaryOf(resumed)).toMatchObject({
      outcome: 'done',
      jobs: { succeeded: 2, failed: 2, running: 0, queued: 0 },
      failures: { uncertain: 2 },
      paused: null,
    });
    expect(sim.ledger.entries()).toHaveLength(4);
  });

  it('without --json, prints a short summary saying it stopped at once and what to run next', async () => {
    const { cli } = await slowRun(2500, 4);
    const { result } = await pressCtrlCTwice(cli, () =>
      pollUntil(() => cli.output().stderr.includes('Pausing'), 'the signal is heard'),
    );
    expect(result.code).toBe(130);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^Stopped at once by a second Ctrl\+C after .+, 2 prompt\(s\) still in flight\.$/,
    );
    expect(result.stdout).toContain('Prompts: 0 succeeded, 4 not finished (of 4).');
    expect(result.stdout).toMatch(/atelier resume\s+carries on with the unfinished work/);
  });
});

// What `timeout`, docker stop, systemd and logout send: the same clean pause as the first
// Ctrl+C, so a run stopped by its supervisor loses nothing it paid for.
describe('SIGTERM and SIGHUP during atelier run', () => {
  it('SIGTERM pauses cleanly: the in-flight results are saved, the summary printed, exit 143; resume generates the rest once', async () => {
    const { sim, cli } = await slowRun(700, 6);
    cli.child.kill('SIGTERM');
    const result = await cli.done;

    expect(result.signal).toBeNull(); // it left by itself, not killed by the signal
    expect(result.code).toBe(143);
    expect(result.stderr).toMatch(
      /Pausing \(SIGTERM\): no new requests; waiting for the 2 in flight/,
    );
    expect(result.stdout).toContain('Paused by SIGTERM');
    expect(result.stdout).toContain('atelier resume');
    expect(sim.ledger.entries().map((e) => e.state)).toEqual(['settled', 'settled']);

    const status = JSON.parse((await runCli(['status', '--json'], { cwd: ws.dir })).stdout);
    // the two in flight are saved as succeeded, not left uncertain
    expect((status as StatusView).batches[0]?.jobs).toMatchObject({
      succeeded: 2,
      queued: 4,
      failed: 0,
    });
    expect(ws.files('atelier-library', 'p')).toHaveLength(2);

    sim.setLatency({ fixedMs: 0 }); // the rest needs no slow answers
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: sim.key });
    expect(resumed.code).toBe(0);
    expect(summaryOf(resumed)).toMatchObject({
      outcome: 'done',
      jobs: { succeeded: 6, failed: 0 },
      requestsSent: 4,
      notes: expect.not.arrayContaining([expect.stringMatching(/in flight when Atelier last/)]),
    });
    expect(sim.ledger.entries()).toHaveLength(6); // nothing generated twice
    expect(ws.files('atelier-library', 'p')).toHaveLength(6);
  });

  it('SIGHUP with the terminal gone (stdout and stderr closed) still drains, saves the results and exits 129', async () => {
    const { sim, cli } = await slowRun(700, 4);
    // logout: the terminal is gone before the signal arrives, so every write fails (EPIPE)
    cli.child.stdout.destroy();
    cli.child.stderr.destroy();
    cli.child.kill('SIGHUP');
    const result = await cli.done;

    expect(result.signal).toBeNull();
    expect(result.code).toBe(129);
    expect(sim.ledger.entries().map((e) => e.state)).toEqual(['settled', 'settled']);
    sim.setLatency({ fixedMs: 0 }); // the rest needs no slow answers
    const resumed = await runCli(['resume', '--json'], { cwd: ws.dir, key: sim.key });
    expect(summaryOf(resumed)).toMatchObject({
      outcome: 'done',
      jobs: { succeeded: 4, failed: 0 },
      failures: {},
      requestsSent: 2,
    });
    expect(sim.ledger.entries()).toHaveLength(4);
  });

  it('with --json, SIGHUP prints one summary object with exit code 129', async () => {
    const { cli } = await slowRun(700, 4, ['--json']);
    cli.child.kill('SIGHUP');
    const result = await cli.done;
    expect(result.code).toBe(129);
    expect(summaryOf(result)).toMatchObject({
      outcome: 'interrupted',
      exitCode: 129,
      jobs: { succeeded: 2, queued: 2, running: 0 },
      paused: { kind: 'manual' },
    });
  });

  it('a second signal of another kind stops at once, as a second Ctrl+C does', async () => {
    const { cli } = await slowRun(4000, 4);
    cli.child.kill('SIGHUP');
    await pollUntil(() => cli.output().stderr.includes('Pausing'), 'the signal is heard');
    const sentAt = Date.now();
    cli.child.kill('SIGTERM');
    const result = await cli.done;
    expect(Date.now() - sentAt).toBeLessThan(1500); // did not wait for the 4 s requests
    expect(result.code).toBe(143);
    expect(result.stderr).toContain('Stopped at once');
    expect(result.stdout).toMatch(
      /^Stopped at once by SIGTERM after .+, 2 prompt\(s\) still in flight\.$/m,
    );
  });
});
