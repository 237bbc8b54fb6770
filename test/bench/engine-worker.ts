/**
 * One benchmark run in its own process, so its CPU time and peak memory are the engine's
 * alone: imports a prompt file, runs it against the gateway at argv URL, prints one JSON line.
 * Its database and library go in a new folder inside `--dir`, left for the caller to delete
 * (see engine-bench.ts: deleting files slows the next ones created nearby on some disks).
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { enableCompileCache } from '../../bin/compile-cache.js';
import { createCatalogue } from '../../shared/gateway/catalogue.ts';
import { Engine } from '../../main/core/engine/engine.ts';
import { createGatewayClient } from '../../main/core/gateway/client.ts';
import { importPromptFile } from '../../main/core/import/import-batch.ts';
import { keepYoungGenerationSmall } from '../../main/core/runtime/young-generation.ts';
import { openStore } from '../../main/core/store/store.ts';

// as the CLI's engine commands do (bin/atelier.js, main/cli/index.ts)
enableCompileCache();
keepYoungGenerationSmall();

const { values } = parseArgs({
  options: {
    gateway: { type: 'string' },
    key: { type: 'string' },
    prompts: { type: 'string' },
    concurrency: { type: 'string', default: '32' },
    'download-concurrency': { type: 'string' },
    size: { type: 'string', default: '64x64' },
    'response-format': { type: 'string', default: 'b64_json' },
    dir: { type: 'string' },
  },
});

if (!values.dir) {
  throw new Error(
    "--dir is required: the folder for the run's database and library, deleted by the caller.",
  );
}
const dir = mkdtempSync(join(values.dir, 'run-'));
const store = openStore(join(dir, 'atelier.db'));
const catalogue = createCatalogue();
try {
  const importStarted = performance.now();
  const batch = await importPromptFile(store, values.prompts!, {
    catalogue,
    defaults: {
      model: 'flux-schnell',
      size: values.size!,
      response_format: values['response-format'] as 'url' | 'b64_json',
    },
  });
  const importMs = performance.now() - importStarted;
  const client = createGatewayClient({
    profile: { baseUrl: values.gateway! },
    apiKey: values.key!,
    catalogue,
  });
  const engine = new Engine({
    store,
    client,
    libraryDir: join(dir, 'library'),
    concurrency: Number(values.concurrency),
    ...(values['download-concurrency']
      ? { downloadConcurrency: Number(values['download-concurrency']) }
      : {}),
  });
  const cpuBefore = process.cpuUsage();
  const mainThreadBefore = process.threadCpuUsage();
  const started = performance.now();
  await engine.start();
  await engine.whenIdle();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const mainThread = process.threadCpuUsage(mainThreadBefore);
  await engine.stop();
  await client.close();
  const progress = engine.progress();
  console.log(
    JSON.stringify({
      jobs: batch.jobCount,
      importMs,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      mainThreadCpuMs: (mainThread.user + mainThread.system) / 1000,
      succeeded: progress.jobs.succeeded,
      imagesWritten: progress.imagesWritten,
      failedDownloads: progress.downloads.failed,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
} finally {
  store.close();
}
