import { existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { AppError } from '../app/app-error.ts';

export interface DestinationChoice {
  /** The zip's path the caller named, if it did. */
  destination?: string | undefined;
  /** The desktop's save dialog; null when the person closed it. */
  choose?: ((suggestedName: string) => Promise<string | null>) | undefined;
  libraryDir: string;
  now: number;
  /** Paths an export writes to now: never handed out twice. */
  busy: (path: string) => boolean;
}

/**
 * Where an export writes its zip: the caller's absolute path (never over an existing file),
 * the path chosen in the desktop's save dialog (which asked about replacing one), or a fresh
 * `<library>/Exports/atelier-<YYYY-MM-DD-HHmmss>.zip`. Null: the dialog was closed.
 */
export async function exportDestination(choice: DestinationChoice): Promise<string | null> {
  const suggested = `atelier-${stamp(new Date(choice.now))}`;
  if (choice.destination !== undefined) {
    const path = choice.destination;
    if (!isAbsolute(path)) {
      throw new AppError(
        'invalid-argument',
        `The export's destination "${path}" is not an absolute path; name the zip in full.`,
      );
    }
    if (existsSync(path) || choice.busy(resolve(path))) {
      throw new AppError(
        'conflict',
        `${path} exists already; name a new file, or move that one away first.`,
      );
    }
    return ensureFolder(resolve(path));
  }
  if (choice.choose) {
    const chosen = await choice.choose(`${suggested}.zip`);
    if (chosen === null) return null;
    const path = resolve(/\.zip$/i.test(chosen) ? chosen : `${chosen}.zip`);
    if (choice.busy(path)) {
      throw new AppError('conflict', `Another export is writing ${path} now; choose another name.`);
    }
    return ensureFolder(path);
  }
  const folder = join(choice.libraryDir, 'Exports');
  let path = join(folder, `${suggested}.zip`);
  for (let n = 2; existsSync(path) || choice.busy(path); n += 1) {
    path = join(folder, `${suggested}-${n}.zip`);
  }
  return ensureFolder(path);
}

function ensureFolder(path: string): string {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppError('disk', `Cannot make the folder for the export ${path}: ${why}`);
  }
  return path;
}

/** YYYY-MM-DD-HHmmss in local time. */
function stamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}-` +
    `${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`
  );
}
