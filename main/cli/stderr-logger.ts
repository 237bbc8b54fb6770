import type { Logger } from '../core/logger.ts';

/**
 * The service's log lines, on stderr with the command's name: stdout carries a command's
 * output only (`--json`'s summary, `atelier prompts`' prompts, `atelier ui`'s address).
 */
export function stderrLogger(name: string): Logger {
  const line = (level: string, message: string, details: unknown[]) =>
    process.stderr.write(
      `${name}: ${level}${message}${details.length ? ` ${details.map(String).join(' ')}` : ''}\n`,
    );
  return {
    info: (message, ...details) => line('', message, details),
    warn: (message, ...details) => line('warning: ', message, details),
    error: (message, ...details) => line('error: ', message, details),
  };
}
