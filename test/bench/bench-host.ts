import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RENDERER_DIR } from '../../main/cli/commands/ui.ts';
import { openAppService, type AppService } from '../../main/core/app/app-service.ts';
import { SettingsFile } from '../../main/core/settings/settings-file.ts';
import { MemoryKeyProvider } from '../../main/core/app/key.ts';
import { localClient } from '../../main/core/app/local-client.ts';
import { silentLogger } from '../../main/core/logger.ts';
import { startWebHost, type WebHost } from '../../main/web/web-host.ts';
import type { Api } from '../../shared/api/types.ts';
import { startSimulatorProcess } from './simulator-process.ts';

export interface BenchHost {
  service: AppService;
  api: Api;
  host: WebHost;
  /** An address with a one-time code, as `atelier ui` prints it (each opens one window). */
  newAddress(route?: string): string;
  stop(): Promise<void>;
}

/**
 * What the host benchmarks measure: the application service and the browser host in this
 * process (thumbnails on, as the desktop), the simulator at latency 0 in a process of its own
 * standing in for the demo gateway, a fresh data folder. The queue is started. `rendererDir`
 * serves another build of the window (an unminified one for a profile).
 */
export async function startBenchHost(
  concurrency: number,
  options: { rendererDir?: string } = {},
): Promise<BenchHost> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-bench-host-'));
  const simulator = await startSimulatorProcess(['--latency-ms', '0']);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const settings = new SettingsFile({ dataDir });
  settings.write({ ...settings.read(), concurrency, thumbnails: true, manifest: false });
  const service = await openAppService({
    dataDir,
    defaultLibraryDir: path.join(dir, 'library'),
    host: 'web',
    version: 'bench',
    settings,
    keys: new MemoryKeyProvider({}),
    logger: silentLogger,
    startDemoGateway: async () => ({
      url: simulator.url,
      key: simulator.key,
      close: async () => {},
    }),
  });
  const host = await startWebHost({
    app: service,
    rendererDir: options.rendererDir ?? RENDERER_DIR,
    logger: silentLogger,
  });
  await service.startQueue();
  return {
    service,
    api: localClient(service),
    host,
    newAddress: (route) => host.newAddress(route),
    async stop() {
      await host.close();
      await service.close();
      simulator.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A prompt file of `count` lines, created paused so the measure starts with the run. */
export async function createBenchBatch(api: Api, count: number): Promise<{ id: number }> {
  await api.queue.pause({ reason: 'importing' });
  const text = Array.from(
    { length: count },
    (_, i) => `bench prompt ${i + 1} of a quiet harbour`,
  ).join('\n');
  const source = { kind: 'text', fileName: 'bench.txt', text } as const;
  const defaults = { model: 'flux-schnell', size: '64x64', response_format: 'b64_json' } as const;
  // a batch this size spends past the confirmation threshold: confirmed as a person would
  const { spend } = await api.batches.check({ source, defaults });
  return api.batches.create({
    name: 'bench',
    source,
    defaults,
    confirmedSpend: { units: spend.units, requests: spend.requests },
  });
}
