import type { ServedApp } from '../core/app/host.ts';
import type { Logger } from '../core/logger.ts';

export interface WebHostOptions {
  app: ServedApp;
  /** The built renderer (out/renderer): index.html for `/` and every other page path. */
  rendererDir: string;
  /** 0 (the default): a free port. The host listens on 127.0.0.1 only. */
  port?: number;
  /** Refused requests and failures; never a query string. */
  logger: Logger;
  /** Secrets (the API key) replaced wherever a response body or event would carry them. */
  secretsToRedact?: () => Promise<string[]>;
  /** Parse handlers' outputs with the contract (tests and development). */
  checkOutput?: boolean;
  /** Time between SSE keep-alive comments (default 15 s). */
  keepAliveMs?: number;
  /** An SSE client further behind than this (default 4 MiB) is told to resync. */
  maxQueuedEventBytes?: number;
  /** The clock of codes, sessions and signed URLs (tests move it). */
  now?: () => number;
}
