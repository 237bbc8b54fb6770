import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openAppService, type AppService } from '../../main/core/app/app-service.ts';
import type { HostActions } from '../../main/core/app/host.ts';
import { JsonSettingsStore } from '../../main/core/app/json-settings-store.ts';
import { MemoryKeyProvider } from '../../main/core/app/key.ts';
import { localClient } from '../../main/core/app/local-client.ts';
import { silentLogger, type Logger } from '../../main/core/logger.ts';
import { startGateway, type RunningGateway } from '../../main/simulator/index.ts';
import type { Api } from '../../shared/api/types.ts';

export interface TestServiceOptions {
  /** What the key provider reads its key from ({} : no key). */
  env?: NodeJS.ProcessEnv;
  actions?: HostActions;
  logger?: Logger;
  /** The demo simulator's faults (`atelier gateway --faults`). */
  demoFaults?: string;
  /** How often the service looks for another process's changes (1 s). */
  foreignCheckMs?: number;
}

export interface TestService {
  service: AppService;
  /** The service's own API, checking every output against the contract. */
  api: Api;
  /** Closes the service, then every demo simulator it started. */
  close(): Promise<void>;
}

/**
 * The application service on `dir` (data in dir/data, library in dir/library), as tests
 * open it: browser host, demo simulators at latency 0, events every 20 ms, no key.
 */
export async function openTestService(
  dir: string,
  { env = {}, actions, logger = silentLogger, demoFaults, foreignCheckMs }: TestServiceOptions = {},
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
    settings: new JsonSettingsStore(dataDir),
    keys: new MemoryKeyProvider(env),
    logger,
    startDemoGateway: async () => {
      const gateway = await startGateway({ latencyMs: 0, faults: demoFaults });
      gateways.push(gateway);
      return gateway;
    },
    eventIntervalMs: 20,
    ...(foreignCheckMs === undefined ? {} : { foreignCheckMs }),
    actions,
  });
  return {
    service,
    api: localClient(service, { checkOutput: true }),
    async close() {
      await service.close();
      await Promise.all(gateways.map((g) => g.close()));
    },
  };
}
