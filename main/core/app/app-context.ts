import type { Catalogue } from '../../../shared/gateway/catalogue.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/store.ts';
import type { EventHub } from './event-hub.ts';
import type { HostActions } from './host.ts';
import type { KeyProvider } from './key.ts';
import type { QueueWrites } from '../engine/queue-writes.ts';
import type { QueueControls } from './queue-controls.ts';
import type { QueueSession } from './queue-session.ts';
import type { GatewayHeaders } from '../settings/header-secrets.ts';
import type { SettingsStore } from './settings-store.ts';

export type HostKind = 'desktop' | 'web' | 'cli';

/** What every area's handlers share: the parts the service composed. */
export interface AppContext {
  readonly store: Store;
  readonly session: QueueSession;
  readonly hub: EventHub;
  readonly settings: SettingsStore;
  readonly keys: KeyProvider;
  /** The extra headers' values: the settings name them only. */
  readonly headers: GatewayHeaders;
  readonly actions: HostActions;
  readonly logger: Logger;
  readonly host: HostKind;
  readonly version: string;
  readonly dataDir: string;
  now(): number;
  /** The library folder now: the setting, or the host's usual place. */
  libraryDir(): string;
  /** The host's usual place for the library (when the setting is null). */
  readonly defaultLibraryDir: string;
  /** The store's half of the controls, for what must not go through an engine. */
  readonly writes: QueueWrites;
  catalogue(): Catalogue;
  /** Reads `<data>/models.json` again (after the person saved their entries). */
  reloadCatalogue(): void;
  /** The running engine's controls, or the store's when no engine runs. */
  controls(): QueueControls;
  /** The scheduler looks for work now (a new batch, a retry), not at its next tick. */
  wake(): void;
  /** Starts the queue again with the current settings, key and catalogue. */
  restartQueue(): Promise<void>;
  /** Reads the key and header values again for scrubbing error messages (after a change). */
  refreshSecrets(): Promise<void>;
  /** Starts the queue if it is not running (after a key is set, say). */
  startQueue(): Promise<void>;
}
