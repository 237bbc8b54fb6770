import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openAppService, type AppService } from '../../main/core/app/app-service.ts';
import type { HostActions } from '../../main/core/app/host.ts';
import { SettingsFile } from '../../main/core/settings/settings-file.ts';
import { MemoryKeyProvider } from '../../main/core/app/key.ts';
import { localClient } from '../../main/core/app/local-client.ts';
import type { EngineOptions } from '../../main/core/engine/engine.ts';
import { silentLogger, type Logger } from '../../main/core/logger.ts';
import { startGateway, type RunningGateway } from '../../main/simulator/index.ts';
import type { Api } from '../../shared/api/types.ts';

export interface TestServiceOptions {
  /** What the key provider and ATELIER_GATEWAY_HEADERS are read from ({}: neither). */
  env?: NodeJS.ProcessEnv;
  /** How often the settings file is checked for another process's changes (0: never). */
  watchIntervalMs?: number;
  actions?: HostActions;
  logger?: Logger;
  /** The service's clock (and the engine's, unless `engine.now` says otherwise). */
  now?: () => number;
  engine?: Partial<EngineOptions>;
  /** The demo simulator's faults (`atelier gateway --faults`). */
  demoFaults?: string;
  /** How often the service looks for another process's changes (1 s). */
  foreignCheckMs?: number;
}

export interface TestService {
  service: AppService;
  /** The service's own API, checking every output against the contract. */
  api: Api;
  /** The demo simulators the service started, newest last (their ledgers say what was charged). */
  gateways: readonly RunningGateway[];
  /** Closes the service, then every demo simulator it started. */
  close(): Promise<void>;
}

/**
 * The application service on `dir` (data in dir/data, library in dir/library), as tests
 * open it: browser host, demo simulators at latency 0, events every 20 ms, no key.
 */
export async function openTestService(
  dir: string,
  {
    env = {},
    actions,
    logger = silentLogger,
    watchIntervalMs = 0,
    now,
    engine,
    demoFaults,
    foreignCheckMs,
  }: TestServiceOptions = {},
): Promise<TestService> {
  const dataDir = path.join(dir, 'data');
  // the settings store reads the data folder before openAppService creates it
  mkdirSync(dataDir, { recursive: true });
  const gateways: RunningGateway[] = [];
  const service = await openAppService({
    dataDir,
    defaultLibraryDir: path.join(dir, 'library'),
    host: 'web',
    version: '0.0.0-test',
    settings: new SettingsFile({ dataDir, watchIntervalMs }),
    keys: new MemoryKeyProvider(env),
    env,
    logger,
    startDemoGateway: async () => {
      const gateway = await startGateway({ latencyMs: 0, faults: demoFaults });
      gateways.push(gateway);
      return gateway;
    },
    eventIntervalMs: 20,
    ...(foreignCheckMs === undefined ? {} : { foreignCheckMs }),
    actions,
    ...(now ? { now } : {}),
    ...(engine || now ? { engine: { ...(now ? { now } : {}), ...engine } } : {}),
  });
  return {
    service,
    api: localClient(service, { checkOutput: true }),
    gateways,
    async close() {
      await service.close();
      await Promise.all(gateways.map((g) => g.close()));
    },
  };
}
