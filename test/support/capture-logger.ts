import type { Logger } from '../../main/core/logger.ts';

export interface LoggedLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  details: unknown[];
}

/** A Logger that keeps what it is told, for a test to read (nothing reaches the console). */
export function captureLogger(): { logger: Logger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const keep =
    (level: LoggedLine['level']) =>
    (message: string, ...details: unknown[]) =>
      void lines.push({ level, message, details });
  return { logger: { info: keep('info'), warn: keep('warn'), error: keep('error') }, lines };
}
