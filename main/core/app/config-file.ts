import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { AppError } from './app-error.ts';
import { PARSE_ONCE } from '../../../shared/api/define.ts';

export interface ConfigFileProblems {
  /** What to do about a bad file: the message's last sentence. */
  fix: string;
  /** The first schema issue, said for a person (where in the file, and what is wrong). */
  describe: (issue: z.core.$ZodIssue, json: unknown) => string;
}

/**
 * A JSON file of the data folder, checked against its schema: null when there is none, and a
 * `settings-invalid` AppError saying what is wrong and what to do when it cannot be read or used.
 */
export function readConfigFile<T>(
  path: string,
  schema: z.ZodType<T>,
  problems: ConfigFileProblems,
): T | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    throw new AppError('settings-invalid', `Cannot read ${path}: ${(error as Error).message}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'settings-invalid',
      `${path} is not valid JSON (${(error as Error).message}). ${problems.fix}`,
    );
  }
  const parsed = schema.safeParse(json, PARSE_ONCE);
  if (!parsed.success) {
    throw new AppError(
      'settings-invalid',
      `${problems.describe(parsed.error.issues[0]!, json)} ${problems.fix}`,
    );
  }
  return parsed.data;
}
