import type { ApiError } from '../../../shared/api/errors.ts';
import type { EventSource, Handlers } from '../../../shared/api/types.ts';

/** What only a desktop can do; a host without it leaves it out (the call says `unsupported`). */
export interface HostActions {
  /** Show the file in the system's file manager. */
  reveal?(absolutePath: string): Promise<void>;
  /** Open the file with the system's default viewer. */
  openWithViewer?(absolutePath: string): Promise<void>;
  /**
   * Move files to the system's trash (image deletion). Without it, deleted images' files are
   * removed outright (the CLI, tests). Throws if any path could not be moved.
   */
  trash?(paths: string[]): Promise<void>;
  /** Ask where to save an export's zip (a save dialog); null when the person closed it. */
  chooseExportPath?(suggestedName: string): Promise<string | null>;
}

/** The service as a host (IPC, the web host) serves it. */
export interface ServedApp {
  /** The whole contract, in process. */
  readonly api: Handlers;
  /** Coalesced events with a cursor, for every client. */
  readonly events: EventSource;
  /** The library folder now (it can change in Settings): media are served from inside it only. */
  libraryDir(): string;
  /** What a handler threw, as it may cross the contract (the key redacted). */
  toApiError(error: unknown): ApiError;
  close(): Promise<void>;
}
