/**
 * Store figures (not a test): bulk insert, the scheduler's claim, and a job's whole write
 * path, on a real file in a temp folder.
 *   node_modules/.bin/node test/bench/store-insert.ts [jobs=100000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewJob } from '../../main/core/store/job-repository.ts';
import { openStore } from '../../main/core/store/store.ts';

const count = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-bench-'));
const store = openStore(path.join(dir, 'atelier.db'));

function* jobs(n: number, prefix: string): Generator<NewJob> {
  for (let i = 1; i <= n; i++) {
    yield {
      prompt: `${prefix} a watercolor painting of a red fox number ${i} in the snow, soft light`,
      model: 'img-model',
      size: '1024x1024',
      seed: i,
      params: { quality: 'high', output_format: 'png' },
    };
  }
}

const ms = (start: number) => (performance.now() - start).toFixed(0);
/** CPU time of this process since `start` (wall time suffers when the machine is shared). */
const cpu = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return ((used.user + used.system) / 1000).toFixed(0);
};
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  let start = performance.now();
  let cpuStart = process.cpuUsage();
  const paused = store.batches.create({ name: 'paused', paused: true }, jobs(count, 'p'), 1);
  console.log(
    `insert ${count.toLocaleString()} jobs in one transaction (FTS and counts included): ${ms(start)} ms wall, ${cpu(cpuStart)} ms CPU`,
  );
  start = performance.now();
  cpuStart = process.cpuUsage();
  const batch = store.batches.create({ name: 'run' }, jobs(count, 'r'), 2);
  console.log(
    `insert ${count.toLocaleString()} more into a non-empty database: ${ms(start)} ms wall, ${cpu(cpuStart)} ms CPU`,
  );

  const claimTimes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    store.jobs.claimRunnable(32, 10);
    claimTimes.push(performance.now() - t);
  }
  console.log(
    `claim 32 (a ${count.toLocaleString()}-job paused batch ahead): median ${median(claimTimes).toFixed(2)} ms`,
  );

  // a job's whole write path, one commit per job, then one commit per claimed group
  const cycles = 5_000;
  for (const grouped of [false, true]) {
    start = performance.now();
    for (let done = 0; done < cycles;) {
      const claimed = store.jobs.claimRunnable(32, 20);
      const complete = () => {
        for (const job of claimed) {
          store.transaction(() => {
            const attempt = store.attempts.start(job.id, 20);
            store.attempts.finish(attempt, {
              now: 21,
              outcome: 'succeeded',
              httpStatus: 200,
              requestId: 'r',
            });
            store.jobs.succeed(job.id, { returnedN: 1, now: 21 });
            store.images.addResults(job.id, [{ idx: 1, url: `https://gw/tmp/${job.id}.png` }], 21);
          });
        }
      };
      if (grouped) store.transaction(complete);
      else complete();
      done += claimed.length;
    }
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `claim 32 + per job attempt, success, image row, ${grouped ? 'one commit per 32 jobs' : 'one commit per job'}: ${(cycles / seconds).toFixed(0)} jobs/s`,
    );
  }

  start = performance.now();
  const counts = store.jobs.counts(batch.id);
  console.log(`counts per state: ${ms(start)} ms ${JSON.stringify(counts)}`);
  start = performance.now();
  const hits = store.jobs.searchPrompts('fox number 4242', { limit: 50 });
  console.log(`prompt search: ${ms(start)} ms, ${hits.length} hits`);
  start = performance.now();
  let canceled = 0;
  let slowest = 0;
  for (let done = false; !done;) {
    const chunkStart = performance.now();
    const chunk = store.jobs.cancelBatch(paused.id, 30);
    slowest = Math.max(slowest, performance.now() - chunkStart);
    canceled += chunk.canceled;
    done = chunk.done;
  }
  console.log(
    `cancel a ${canceled.toLocaleString()}-job batch in chunks of 2,000: ${ms(start)} ms, longest lock ${slowest.toFixed(0)} ms`,
  );
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
