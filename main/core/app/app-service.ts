import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiError } from '../../../shared/api/errors.ts';
import type { Handlers } from '../../../shared/api/types.ts';
import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import type { EngineOptions } from '../engine/engine.ts';
import { consoleLogger, type Logger } from '../logger.ts';
import { openStore, type Store } from '../store/store.ts';
import { toApiError } from './api-error.ts';
import type { AppContext, HostKind } from './app-context.ts';
import { EventHub } from './event-hub.ts';
import { ExportRunner } from '../export/export-runner.ts';
import { ForeignChanges } from './foreign-changes.ts';
import type { StartDemoGateway } from './gateway-connection.ts';
import { appHandlers } from './handlers/app.ts';
import { batchHandlers } from './handlers/batches.ts';
import { composeHandlers } from './handlers/compose.ts';
import { exportHandlers } from './handlers/exports.ts';
import { imageHandlers } from './handlers/images.ts';
import { jobHandlers } from './handlers/jobs.ts';
import { keyHandlers } from './handlers/key.ts';
import { libraryHandlers } from './handlers/library.ts';
import { modelHandlers } from './handlers/models.ts';
import { queueHandlers } from './handlers/queue.ts';
import { settingsHandlers } from './handlers/settings.ts';
import type { HostActions, ServedApp } from './host.ts';
import { hubFeed } from './hub-feed.ts';
import type { KeyProvider } from './key.ts';
import { loadCatalogue } from './model-catalogue.ts';
import { QueueWrites } from '../engine/queue-writes.ts';
import type { QueueControls } from './queue-controls.ts';
import { QueueSession, type SessionListener } from './queue-session.ts';
import type { SettingsStore } from './settings-store.ts';

export interface AppServiceOptions {
  /** atelier.db and models.json live here; created if missing. */
  dataDir: string;
  /** The library when the settings name none (the platform's Pictures folder, say). */
  defaultLibraryDir: string;
  host: HostKind;
  version: string;
  settings: SettingsStore;
  keys: KeyProvider;
  /** The host starts the simulator for demo mode (the core may not import it). */
  startDemoGateway: StartDemoGateway;
  actions?: HostActions;
  logger?: Logger;
  now?: () => number;
  /** Tests and benchmarks: backoff, clock, progress interval. */
  engine?: Partial<EngineOptions>;
  /** Shortest time between two event deliveries (100 ms). */
  eventIntervalMs?: number;
  /** How often to look for changes another process made to the data folder (1 s). */
  foreignCheckMs?: number;
}

/**
 * The application: store, queue, library, gateway, catalogue, settings and key composed
 * behind the one contract every client speaks (`api`), with its events (`events`). Hosts
 * (Electron IPC, the browser host, the CLI) only carry calls to it.
 */
export class AppService implements ServedApp {
  readonly api: Handlers;
  readonly events: EventHub;
  readonly store: Store;
  private readonly exports: ExportRunner;
  private readonly foreign: ForeignChanges;
  private readonly context: AppContext;
  private readonly session: QueueSession;
  private readonly options: AppServiceOptions;
  private closed = false;

  constructor(options: AppServiceOptions, store: Store) {
    this.options = options;
    this.store = store;
    const logger = options.logger ?? consoleLogger;
    const now = options.now ?? Date.now;
    this.session = new QueueSession({
      store,
      keys: options.keys,
      startDemoGateway: options.startDemoGateway,
      logger,
      ...(options.engine ? { engine: options.engine } : {}),
    });
    this.events = new EventHub({
      feed: hubFeed(store, this.session, () => options.settings.read().thumbnails),
      ...(options.eventIntervalMs === undefined ? {} : { intervalMs: options.eventIntervalMs }),
    });
    this.foreign = new ForeignChanges({
      db: store.db,
      hub: this.events,
      ...(options.foreignCheckMs === undefined ? {} : { intervalMs: options.foreignCheckMs }),
    });
    this.exports = new ExportRunner({
      publish: (payload) => this.events.send({ type: 'export.progress', payload }),
      logger,
    });
    let catalogue = loadCatalogue(options.dataDir);
    const storeControls = new QueueWrites(store, now);
    const session = this.session;
    const listener = this.listener();
    const context: AppContext = {
      store,
      session,
      hub: this.events,
      settings: options.settings,
      keys: options.keys,
      actions: options.actions ?? {},
      logger,
      host: options.host,
      version: options.version,
      dataDir: options.dataDir,
      now,
      libraryDir: () => this.libraryDir(),
      catalogue: () => catalogue,
      reloadCatalogue: () => {
        catalogue = loadCatalogue(options.dataDir);
      },
      defaultLibraryDir: options.defaultLibraryDir,
      writes: storeControls,
      controls: (): QueueControls => session.engine ?? storeControls,
      wake: () => session.engine?.wake(),
      refreshSecrets: () => this.refreshSecrets(),
      restartQueue: () => session.restart(() => this.inputs(() => catalogue), listener),
      startQueue: () => session.start(() => this.inputs(() => catalogue), listener),
    };
    this.context = context;
    this.api = {
      batches: batchHandlers(context),
      queue: queueHandlers(context),
      jobs: jobHandlers(context),
      images: imageHandlers(context),
      exports: exportHandlers(context, this.exports),
      settings: settingsHandlers(context),
      key: keyHandlers(context),
      models: modelHandlers(context),
      library: libraryHandlers(context),
      app: appHandlers(context),
      compose: composeHandlers(context),
    };
  }

  libraryDir(): string {
    return this.options.settings.read().library ?? this.options.defaultLibraryDir;
  }

  /** Starts the queue, or records why it cannot (see `queue.state().problem`). */
  startQueue(): Promise<void> {
    return this.context.startQueue();
  }

  /** The running queue's engine, for hosts that watch it closely (the CLI's progress bar). */
  get engine() {
    return this.session.engine;
  }

  toApiError(error: unknown): ApiError {
    return toApiError(error, [this.lastKnownKey]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.foreign.close();
    await this.exports.close();
    await this.session.close();
    this.events.flush();
    this.events.close();
    this.store.close();
  }

  /** The key as last read, to scrub messages synchronously (errors cross the contract). */
  private lastKnownKey: string | null = null;

  async refreshSecrets(): Promise<void> {
    this.lastKnownKey = await this.options.keys.get();
  }

  private inputs(catalogue: () => Catalogue) {
    return {
      settings: this.options.settings.read(),
      libraryDir: this.libraryDir(),
      catalogue: catalogue(),
    };
  }

  private listener(): SessionListener {
    return {
      committed: () => this.events.notify(),
      paused: (pause) => this.events.send({ type: 'queue.paused', payload: pause }),
      limits: (limits) => this.events.send({ type: 'limits.changed', payload: limits }),
      downloadChanged: (image) => this.events.imagesChanged([image.id], [image.batchId], false),
    };
  }
}

/** Opens the data folder (migrating it) and composes the service; the queue is not started. */
export async function openAppService(options: AppServiceOptions): Promise<AppService> {
  mkdirSync(options.dataDir, { recursive: true });
  const store = openStore(join(options.dataDir, 'atelier.db'));
  try {
    const service = new AppService(options, store);
    await service.refreshSecrets();
    return service;
  } catch (error) {
    store.close();
    throw error;
  }
}
