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
import { LibraryMover } from './library-mover.ts';
import { hostname } from 'node:os';
import { LEASE_STALE_AFTER_MS, mayTakeOver, processIsAlive } from '../store/runner-lease.ts';
import type { StartDemoGateway } from './gateway-connection.ts';
import { appHandlers } from './handlers/app.ts';
import { batchHandlers } from './handlers/batches.ts';
import { editHandlers } from './handlers/edits.ts';
import { composeHandlers } from './handlers/compose.ts';
import { exportHandlers } from './handlers/exports.ts';
import { imageHandlers } from './handlers/images.ts';
import { jobHandlers } from './handlers/jobs.ts';
import { keyHandlers } from './handlers/key.ts';
import { libraryHandlers } from './handlers/library.ts';
import { modelHandlers } from './handlers/models.ts';
import { promptHandlers } from './handlers/prompts.ts';
import { PromptHelpRunner } from '../prompts/prompt-help-runner.ts';
import { queueHandlers } from './handlers/queue.ts';
import { settingsChanged, settingsHandlers } from './handlers/settings.ts';
import { spendHandlers } from './handlers/spend.ts';
import type { HostActions, ServedApp } from './host.ts';
import { gatewayTarget } from './gateway-target.ts';
import { hubFeed } from './hub-feed.ts';
import { withBudget } from './progress-view.ts';
import type { KeyProvider } from './key.ts';
import { loadCatalogue } from './model-catalogue.ts';
import { QueueWrites } from '../engine/queue-writes.ts';
import type { QueueControls } from './queue-controls.ts';
import { QueueSession, type SessionListener } from './queue-session.ts';
import type { SettingsStore } from './settings-store.ts';
import type { GatewayContextOptions } from '../gateway/context.ts';
import {
  GatewayHeaders,
  MemoryHeaderSecrets,
  type HeaderSecrets,
} from '../settings/header-secrets.ts';

export interface AppServiceOptions {
  /** atelier.db and models.json live here; created if missing. */
  dataDir: string;
  /** The library when the settings name none (the platform's Pictures folder, say). */
  defaultLibraryDir: string;
  host: HostKind;
  version: string;
  /** The data folder's settings (`main/core/settings/settings-file.ts`). */
  settings: SettingsStore;
  keys: KeyProvider;
  /** Where extra headers' values are kept (default: this process's memory). */
  headerSecrets?: HeaderSecrets;
  /** Where ATELIER_GATEWAY_HEADERS is read (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** The host starts the simulator for demo mode (the core may not import it). */
  startDemoGateway: StartDemoGateway;
  actions?: HostActions;
  logger?: Logger;
  now?: () => number;
  /** Tests and benchmarks: backoff, clock, progress interval; the CLI's limit flags. */
  engine?: Partial<EngineOptions>;
  /** Caps on what the gateway may send (the CLI's limit flags). */
  client?: Pick<GatewayContextOptions, 'maxAnswerBytes'>;
  /**
   * This host's own cap on what its queue spends while it runs, in quota units (the CLI's
   * --max-spend): the queue pauses as `budget` before the request that would pass it.
   */
  runSpendCap?: number | null;
  /** Shortest time between two event deliveries (100 ms). */
  eventIntervalMs?: number;
  /**
   * The queue starts only when the host asks (`startQueue`), never on a change of settings or
   * key before then: the CLI saves its flags, then imports, then runs.
   */
  holdQueue?: boolean;
  /**
   * Whether another process's change of the settings reaches this one (default): a queue that
   * runs here restarts on a new gateway. A CLI run finishes with the settings it started with.
   */
  followSettingsChanges?: boolean;
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
  private readonly mover: LibraryMover;
  /** The library's files are moving: the queue stays stopped (see LibraryMover). */
  private heldForMove = false;
  private readonly prompts: PromptHelpRunner;
  private readonly foreign: ForeignChanges;
  private readonly context: AppContext;
  private readonly session: QueueSession;
  private readonly options: AppServiceOptions;
  private readonly headers: GatewayHeaders;
  private readonly logger: Logger;
  private unsubscribe: () => void = () => {};
  /** Whether the queue may start (a host that holds it has not asked yet). */
  private mayStart: boolean;
  private closed = false;

  constructor(options: AppServiceOptions, store: Store) {
    this.options = options;
    this.store = store;
    this.mayStart = !options.holdQueue;
    const logger = options.logger ?? consoleLogger;
    this.logger = logger;
    const now = options.now ?? Date.now;
    this.headers = new GatewayHeaders(
      options.headerSecrets ?? new MemoryHeaderSecrets(),
      options.env ?? process.env,
    );
    this.session = new QueueSession({
      store,
      keys: options.keys,
      headers: this.headers,
      startDemoGateway: options.startDemoGateway,
      logger,
      runSpendCap: options.runSpendCap ?? null,
      ...(options.engine ? { engine: options.engine } : {}),
      ...(options.client ? { client: options.client } : {}),
    });
    this.events = new EventHub({
      feed: hubFeed(store, this.session, () => options.settings.read(), now),
      ...(options.eventIntervalMs === undefined ? {} : { intervalMs: options.eventIntervalMs }),
    });
    this.foreign = new ForeignChanges({
      db: store.db,
      hub: this.events,
      now,
      ...(options.foreignCheckMs === undefined ? {} : { intervalMs: options.foreignCheckMs }),
    });
    this.exports = new ExportRunner({
      publish: (payload) => this.events.send({ type: 'export.progress', payload }),
      logger,
    });
    this.prompts = new PromptHelpRunner({
      publish: (payload) => this.events.send({ type: 'prompts.progress', payload }),
      logger,
      now,
    });
    let catalogue = loadCatalogue(options.dataDir);
    this.mover = new LibraryMover({
      dataDir: options.dataDir,
      publish: (payload) => this.events.send({ type: 'library.move', payload }),
      logger,
      library: () => this.libraryDir(),
      switchLibrary: async (to) => {
        const before = options.settings.read();
        const next = { ...before, library: to };
        options.settings.write(next);
        await settingsChanged(this.context, before, next);
      },
      hold: async () => {
        this.heldForMove = true;
        await this.session.stop();
      },
      release: async () => {
        this.heldForMove = false;
        if (this.mayStart) await this.context.startQueue();
      },
      busy: () => this.moveRefusal(),
    });
    const storeControls = new QueueWrites(store, now);
    const session = this.session;
    const listener = this.listener();
    const context: AppContext = {
      store,
      session,
      hub: this.events,
      settings: options.settings,
      keys: options.keys,
      headers: this.headers,
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
      restartQueue: () =>
        this.mayStart && !this.heldForMove
          ? session.restart(() => this.inputs(() => catalogue), listener)
          : Promise.resolve(),
      startQueue: () => {
        this.mayStart = true;
        if (this.heldForMove) return Promise.resolve();
        return session.start(() => this.inputs(() => catalogue), listener);
      },
    };
    this.context = context;
    this.api = {
      batches: batchHandlers(context),
      edits: editHandlers(context),
      queue: queueHandlers(context),
      jobs: jobHandlers(context),
      images: imageHandlers(context),
      exports: exportHandlers(context, this.exports),
      prompts: promptHandlers(context, this.prompts),
      spend: spendHandlers(context),
      settings: settingsHandlers(context),
      key: keyHandlers(context),
      models: modelHandlers(context),
      library: libraryHandlers(context, this.mover),
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

  /** Why the gateway the settings choose cannot be used now (no key, a header's value), or null. */
  async gatewayProblem(): Promise<ApiError | null> {
    const target = await gatewayTarget(
      this.options.settings.read(),
      this.options.keys,
      this.headers,
    );
    return 'kind' in target ? null : target;
  }

  /** Stops the queue (requests in flight finish), leaving the service open. */
  stopQueue(): Promise<void> {
    return this.session.stop();
  }

  /** The running queue's engine, for hosts that watch it closely (the CLI's progress bar). */
  get engine() {
    return this.session.engine;
  }

  /** The queue's session: why it did not start, where it sends, what its start found. */
  get queue(): Pick<
    QueueSession,
    'engine' | 'problem' | 'startFailure' | 'startReport' | 'description' | 'gateway'
  > {
    return this.session;
  }

  toApiError(error: unknown): ApiError {
    return toApiError(error, this.lastKnownSecrets);
  }

  /**
   * What opening does after composing: header values older settings files kept in plain text
   * go to the secret store, and another process's changes to the settings are followed.
   */
  async settle(): Promise<void> {
    const settings = this.options.settings;
    const migrated = settings.takeMigratedHeaderValues();
    if (migrated.size > 0) {
      const ids = new Set(settings.read().profiles.flatMap((p) => p.headers.map((h) => h.id)));
      await this.headers.secrets
        .update(migrated, ids)
        .catch((error: Error) =>
          this.logger.warn(
            `the extra headers of the older settings were not kept: ${error.message}`,
          ),
        );
    }
    if (this.options.followSettingsChanges !== false) {
      this.unsubscribe = settings.subscribe((next, previous) => {
        void settingsChanged(this.context, previous, next, { elsewhere: true }).catch(
          (error: unknown) =>
            this.logger.error('following a change of the settings made elsewhere', error),
        );
      });
    }
    await this.refreshSecrets();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.foreign.close();
    await this.exports.close();
    await this.mover.close();
    await this.prompts.close();
    await this.session.close();
    this.events.flush();
    this.events.close();
    this.store.close();
  }

  /** Why the library's files cannot move now (the queue stopped), or null. */
  private moveRefusal(): string | null {
    // (this process stopped its queue: a lease still held is another process's)
    const holder = this.store.queue.runner();
    const free = mayTakeOver(holder, { id: '', host: hostname() }, Date.now(), {
      staleAfterMs: LEASE_STALE_AFTER_MS,
      isAlive: processIsAlive,
    });
    if (holder && !free) {
      return (
        `Another Atelier (process ${holder.pid} on ${holder.host}) runs this data folder's ` +
        'queue and writes into the library: close it, then move the library.'
      );
    }
    if (this.store.images.counts().downloading > 0) {
      return 'Images are still being written: wait until they are, then move the library.';
    }
    return null;
  }

  /** The key and header values as last read, to scrub messages synchronously. */
  private lastKnownSecrets: Array<string | null> = [];

  async refreshSecrets(): Promise<void> {
    this.lastKnownSecrets = [
      ...(await this.options.keys.all()),
      ...(await this.headers.allValues(this.options.settings.read().profiles)),
    ];
  }

  /**
   * What a start of the queue runs with. The library is named for good before the first image
   * is written there: one library per data folder, whichever host opens it next (each has its
   * own usual place).
   */
  private inputs(catalogue: () => Catalogue) {
    const settings = this.options.settings;
    if (settings.read().library === null) {
      settings.write({ ...settings.read(), library: this.options.defaultLibraryDir });
    }
    return { settings: settings.read(), libraryDir: this.libraryDir(), catalogue: catalogue() };
  }

  private listener(): SessionListener {
    return {
      committed: () => this.events.notify(),
      paused: (pause) =>
        this.events.send({ type: 'queue.paused', payload: withBudget(pause, this.store) }),
      limits: (limits) => this.events.send({ type: 'limits.changed', payload: limits }),
      video: (jobId) => this.events.videosChanged([jobId]),
      downloadChanged: (image) => {
        this.events.imagesChanged([image.id], [image.batchId], false);
        // its job's row counts its failed downloads
        this.events.jobsUpdated([image.jobId], [image.batchId], false);
      },
    };
  }
}

/**
 * Opens the data folder (migrating it) and composes the service; the queue is not started.
 * `opened` is the data folder's database when the host opened it itself (the CLI, to word a
 * refusal its own way).
 */
export async function openAppService(
  options: AppServiceOptions,
  opened?: Store,
): Promise<AppService> {
  if (!opened) mkdirSync(options.dataDir, { recursive: true });
  const store = opened ?? openStore(join(options.dataDir, 'atelier.db'));
  try {
    const service = new AppService(options, store);
    await service.settle();
    return service;
  } catch (error) {
    store.close();
    throw error;
  }
}
