/**
 * Where the core says what went wrong in the background (a failed checkpoint, a job that threw).
 * Hosts pass their own: the CLI writes to stderr, the desktop to its log, tests capture it.
 */
export interface Logger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** The default: the process's console, each line starting with "atelier:". */
export const consoleLogger: Logger = {
  info: (message, ...details) => console.info(`atelier: ${message}`, ...details),
  warn: (message, ...details) => console.warn(`atelier: ${message}`, ...details),
  error: (message, ...details) => console.error(`atelier: ${message}`, ...details),
};

/** Drops everything (benchmarks). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
