import { existsSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../app/app-error.ts';
import { READ_NO_FOLLOW, realPathInside } from '../library/containment.ts';
import { EXPORTS_FOLDER, nameCandidates, pathKey } from '../library/naming.ts';

export interface DestinationChoice {
  /** The desktop's save dialog, in the main process; null when the person closed it. */
  choose?: ((suggestedName: string) => Promise<string | null>) | undefined;
  libraryDir: string;
  now: number;
  /** Paths an export writes to now: never handed out twice. */
  busy: (path: string) => boolean;
  /** Whether a batch owns this folder of the library (by pathKey): exports never go there. */
  isBatchFolder: (key: string) => boolean;
}

export interface Destination {
  path: string;
  /**
   * The file the save dialog asked about replacing, held open from then on (so its identity,
   * device and inode, cannot pass to another file); null: replace nothing. Close it when done.
   */
  replaces: FileHandle | null;
}

/**
 * Where an export writes its zip. The page never names it: the desktop asks with its save
 * dialog (which asked about replacing a file already there), any other host writes a fresh
 * `<library>/Exports/atelier-<YYYY-MM-DD-HHmmss>.zip`, in a folder no batch owns. Null: the
 * dialog was closed.
 */
export async function exportDestination(choice: DestinationChoice): Promise<Destination | null> {
  const suggested = `atelier-${stamp(new Date(choice.now))}`;
  if (choice.choose) {
    const chosen = await choice.choose(`${suggested}.zip`);
    if (chosen === null) return null;
    const path = resolve(/\.zip$/i.test(chosen) ? chosen : `${chosen}.zip`);
    if (choice.busy(path)) {
      throw new AppError('conflict', `Another export is writing ${path} now; choose another name.`);
    }
    return {
      path: ensureFolder(path),
      replaces: await open(path, READ_NO_FOLLOW).catch(() => null),
    };
  }
  // (checked before the folder is made: a link planted as `Exports` must not be followed)
  const folder = await realPathInside(
    choice.libraryDir,
    join(choice.libraryDir, exportsFolder(choice.isBatchFolder)),
    'write exports into',
  );
  let path = join(folder, `${suggested}.zip`);
  for (let n = 2; existsSync(path) || choice.busy(path); n += 1) {
    path = join(folder, `${suggested}-${n}.zip`);
  }
  return { path: ensureFolder(path), replaces: null };
}

/** `Exports`, or `Exports~2`… when a batch made before the name was kept for exports owns it. */
function exportsFolder(isBatchFolder: (key: string) => boolean): string {
  for (const name of nameCandidates(EXPORTS_FOLDER)) if (!isBatchFolder(pathKey(name))) return name;
  throw new AppError('conflict', 'Every name for the exports folder is taken by a batch.');
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
