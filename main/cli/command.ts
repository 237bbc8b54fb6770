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
    return parseArgs({
      args: negativeValuesJoined(argv, options),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A negative number: never a flag, so after a flag that takes a value it is that value. */
const NEGATIVE_NUMBER = /^-\d/;

/**
 * `--concurrency -1` as `--concurrency=-1`: parseArgs takes a value starting with "-" for a
 * forgotten one and says only that it is "ambiguous"; joined, the value's own check explains
 * the valid range.
 */
function negativeValuesJoined(
  argv: string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    const takesValue = arg.startsWith('--') && options[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** A whole number within [min, max], or a UsageError naming the flag. */
export function intFlag(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  // decimal digits only: Number() would also take " 3", "0x10" and "1e2"
  const n = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
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
