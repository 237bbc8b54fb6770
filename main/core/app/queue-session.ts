import type { PauseKind } from '../../../shared/jobs/pause.ts';
import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import type { ApiError } from '../../../shared/api/errors.ts';
import {
  Engine,
  EngineBusyError,
  type EngineLimits,
  type EngineOptions,
  type StartReport,
} from '../engine/engine.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { GatewayContextOptions } from '../gateway/context.ts';
import { LibraryFolderError } from '../library/library-folder.ts';
import type { Logger } from '../logger.ts';
import { StoreDiskError } from '../store/store-errors.ts';
import type { Store } from '../store/store.ts';
import {
  connectGateway,
  type GatewayConnection,
  type StartDemoGateway,
} from './gateway-connection.ts';
import type { GatewayHeaders } from '../settings/header-secrets.ts';
import { gatewayTarget } from './gateway-target.ts';
import type { KeyProvider } from './key.ts';
import type { SettingsValue } from './settings-store.ts';
import { budgetRules, gatewayName, pricesInForce } from './spend.ts';

export type SessionState = 'stopped' | 'running' | 'stopping';

export interface QueueSessionOptions {
  store: Store;
  keys: KeyProvider;
  /** The extra headers' values (the settings name them only). */
  headers: GatewayHeaders;
  startDemoGateway: StartDemoGateway;
  logger: Logger;
  /** Tests and benchmarks: backoff, clock, progress interval; the CLI's limit flags. */
  engine?: Partial<EngineOptions>;
  /** Caps on what the gateway may send (the CLI's limit flags). */
  client?: Pick<GatewayContextOptions, 'maxAnswerBytes'>;
  /** This host's own cap on what the queue spends while it runs (the CLI's --max-spend). */
  runSpendCap?: number | null;
}

export interface SessionInputs {
  settings: SettingsValue;
  libraryDir: string;
  catalogue: Catalogue;
}

/** Where the engine's news goes (the event hub). */
export interface SessionListener {
  committed(): void;
  limits(limits: EngineLimits): void;
  paused(pause: { reason: string; code: string | null; kind: PauseKind }): void;
  /** What the platform said of a video job's task was recorded. */
  video(jobId: number): void;
  /** A download failed, or waits again: its image, job and batch changed. */
  downloadChanged(image: { id: number; jobId: number; batchId: number }): void;
}

/**
 * The running queue: a gateway connection and the engine on it. It starts when it can (a
 * key for a real gateway, the queue not held by another process) and otherwise says why in
 * `problem`, so the app still opens, browses and composes; a change of gateway, key or
 * library restarts it.
 */
export class QueueSession {
  private readonly options: QueueSessionOptions;
  private engineNow: Engine | null = null;
  private connection: GatewayConnection | null = null;
  private stateNow: SessionState = 'stopped';
  private problemNow: ApiError | null = null;
  private failure: unknown = null;
  private closed = false;
  private lastReport: StartReport | null = null;
  private transition: Promise<void> = Promise.resolve();

  constructor(options: QueueSessionOptions) {
    this.options = options;
  }

  /**
   * The engine that owns the queue now: running, or stopping (its requests in flight are still
   * its own: a cancel must abort them through it, never mark them in the store behind it).
   */
  get engine(): Engine | null {
    return this.engineNow;
  }
  get state(): SessionState {
    return this.stateNow;
  }
  /** Why the queue is not running, when it is not. */
  get problem(): ApiError | null {
    return this.problemNow;
  }
  get gateway(): { name: string; baseUrl: string; demo: boolean } | null {
    const c = this.connection;
    return c ? { name: c.name, baseUrl: c.baseUrl, demo: c.demo } : null;
  }
  get startReport(): StartReport | null {
    return this.lastReport;
  }
  /** What the last start threw, when it could not start (the CLI words some of these itself). */
  get startFailure(): unknown {
    return this.failure;
  }
  /** Where requests go, for a person (never the key). */
  get description(): string | null {
    return this.connection?.description ?? null;
  }

  /**
   * A gateway client for one call beside the queue (prompt help), on the settings' gateway:
   * the queue's own demo gateway when it runs one, otherwise a connection of its own, closed
   * on release (a restart of the queue then never cuts the call). An error when there is no
   * gateway to use (no key, no profile).
   */
  async lendClient(
    settings: SettingsValue,
    catalogue: Catalogue,
  ): Promise<{ client: GatewayClient; demo: boolean; release(): Promise<void> } | ApiError> {
    const running = this.connection;
    if (settings.gateway.kind === 'demo' && running?.demo) {
      return { client: running.client, demo: true, release: async () => {} };
    }
    const target = await gatewayTarget(settings, this.options.keys, this.options.headers);
    if (!('kind' in target)) return target;
    try {
      const own = await connectGateway(
        target,
        catalogue,
        this.options.startDemoGateway,
        this.options.client,
      );
      return { client: own.client, demo: own.demo, release: () => own.close() };
    } catch (error) {
      return {
        code: 'gateway-unreachable',
        message: `The gateway could not be set up: ${(error as Error).message}`,
      };
    }
  }

  /**
   * Starts the queue, or records why it cannot; one start or stop at a time. `inputs` is read
   * when the start runs, so a change made while an earlier step was under way is not lost.
   */
  start(inputs: () => SessionInputs, listener: SessionListener): Promise<void> {
    return this.serially(() => this.startNow(inputs(), listener));
  }

  stop(options: { abort?: boolean } = {}): Promise<void> {
    return this.serially(() => this.stopNow(options));
  }

  restart(inputs: () => SessionInputs, listener: SessionListener): Promise<void> {
    return this.serially(async () => {
      await this.stopNow({});
      await this.startNow(inputs(), listener);
    });
  }

  /** Stops for good: a start or restart asked for later (a late call) does nothing. */
  close(): Promise<void> {
    this.closed = true;
    return this.stop();
  }

  private serially(step: () => Promise<void>): Promise<void> {
    const next = this.transition.then(step, step);
    this.transition = next.catch(() => {});
    return next;
  }

  private async startNow(inputs: SessionInputs, listener: SessionListener): Promise<void> {
    if (this.stateNow !== 'stopped' || this.closed) return;
    this.problemNow = null;
    this.failure = null;
    const target = await gatewayTarget(inputs.settings, this.options.keys, this.options.headers);
    if (!('kind' in target)) {
      this.problemNow = target;
      return;
    }
    let connection: GatewayConnection;
    try {
      connection = await connectGateway(
        target,
        inputs.catalogue,
        this.options.startDemoGateway,
        this.options.client,
      );
    } catch (error) {
      this.failure = error;
      this.problemNow = {
        code: 'gateway-unreachable',
        message: `The gateway could not be set up: ${(error as Error).message}`,
      };
      return;
    }
    const { settings } = inputs;
    // what the store's spend triggers price and count against, before anything can settle
    this.followSpendSettings(settings, inputs.catalogue);
    const engine = new Engine({
      responseFormat: connection.demo ? 'b64_json' : undefined,
      logger: this.options.logger,
      ...this.options.engine,
      store: this.options.store,
      client: connection.client,
      libraryDir: inputs.libraryDir,
      concurrency: settings.concurrency,
      requestsPerMinute: settings.requestsPerMinute,
      sidecar: settings.sidecar,
      manifest: settings.manifest,
      thumbnails: settings.thumbnails,
      budget: budgetRules(settings, this.options.runSpendCap ?? null),
      ...(settings.template ? { namingTemplate: settings.template } : {}),
    });
    try {
      this.lastReport = await engine.start();
    } catch (error) {
      await connection.close();
      this.failure = error;
      this.problemNow = startProblem(error);
      if (!this.problemNow) throw error;
      return;
    }
    engine.on('committed', () => listener.committed());
    engine.on('idle', () => listener.committed());
    engine.on('paused', (pause) => listener.paused(pause));
    engine.on('limits', (limits) => listener.limits(limits));
    engine.on('video', ({ jobId }) => listener.video(jobId));
    engine.on('downloadChanged', (image) => listener.downloadChanged(image));
    this.engineNow = engine;
    this.connection = connection;
    this.stateNow = 'running';
  }

  /**
   * The prices, the gateway and the caps the spend is counted by, from these settings: the
   * store's prices and gateway (what its triggers record charges with) and the running
   * engine's caps. The engine's own process calls it: at the start and on every change.
   */
  followSpendSettings(settings: SettingsValue, catalogue: Catalogue): void {
    const { store } = this.options;
    store.spend.setPrices(pricesInForce(settings, catalogue));
    store.spend.setGateway(gatewayName(settings));
    this.engineNow?.setBudget(budgetRules(settings, this.options.runSpendCap ?? null));
  }

  private async stopNow(options: { abort?: boolean }): Promise<void> {
    const engine = this.engineNow;
    const connection = this.connection;
    if (!engine || !connection) return;
    this.stateNow = 'stopping';
    try {
      await engine.stop(options);
    } finally {
      engine.removeAllListeners();
      await connection
        .close()
        .catch((error: Error) =>
          this.options.logger.warn(`closing the gateway connection: ${error.message}`),
        );
      this.engineNow = null;
      this.connection = null;
      this.stateNow = 'stopped';
    }
  }
}

/** Why the engine would not start, as the contract says it; null for a bug. */
function startProblem(error: unknown): ApiError | null {
  if (error instanceof EngineBusyError) return { code: 'busy', message: error.message };
  if (error instanceof LibraryFolderError) return { code: 'disk', message: error.message };
  if (error instanceof StoreDiskError) return { code: 'disk', message: error.message };
  return null;
}
