import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Returns the process exit code. */
  run(argv: string[]): Promise<number>;
}

/** Bad flags or values: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/**
 * A setting or input the person must fix (no key, a bad prompt file, a database from a newer
 * Atelier): printed alone, without the help, exit code 2.
 */
export class ConfigError extends Error {}

/** parseArgs that reports unknown or malformed flags as a UsageError. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: T,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A whole number within [min, max], or a UsageError naming the flag. */
export function intFlag(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got "${value}").`);
  }
  return n;
}

/** One of the listed words, or a UsageError listing them. */
export function oneOf<const T extends readonly string[]>(
  value: string | undefined,
  flag: string,
  allowed: T,
): T[number] | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
  }
  return value;
}
