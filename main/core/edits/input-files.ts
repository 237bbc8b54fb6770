import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, unlink, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { replaceFileAtomically } from '../library/atomic-write.ts';
import { defaultLibraryFs, errnoCode, isTempFileName } from '../library/library-fs.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/store.ts';

/** The data folder's folder of edit inputs (pictures and masks as sent), by content. */
export const EDIT_INPUTS_FOLDER = 'edit-inputs';

const SHA256 = /^[0-9a-f]{64}$/;
const INPUT_NAME = /^([0-9a-f]{64})\.png$/;

/** An input a job needs is missing or changed: the job cannot send what it was checked with. */
export class EditInputError extends Error {}

/**
 * The pictures and masks edit jobs send, kept in the data folder under the sha256 of their
 * bytes (`edit-inputs/<sha256>.png`): written before the jobs that name them are committed,
 * read back and checked on every attempt, so a retry, a top-up or a resume after a crash
 * sends the very bytes that were checked. Files no job names any more are swept.
 */
export class EditInputFiles {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The inputs of the data folder whose database the store opened. */
  static of(store: Store): EditInputFiles {
    return new EditInputFiles(join(dirname(store.db.name), EDIT_INPUTS_FOLDER));
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new EditInputError(`"${sha256}" names no edit input.`);
    return join(this.dir, `${sha256}.png`);
  }

  /**
   * Keeps `bytes` (fsynced) under their sha256 and returns it. A file already whole is kept,
   * its time renewed, so a sweep spares it until the jobs that will name it are committed.
   */
  async put(bytes: Buffer, sha256 = digest(bytes)): Promise<string> {
    const path = this.pathOf(sha256);
    if (await this.holds(path, sha256)) {
      const now = new Date();
      await utimes(path, now, now);
      return sha256;
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await replaceFileAtomically(defaultLibraryFs, path, bytes);
    return sha256;
  }

  /** The bytes kept under `sha256`, checked against it. */
  async read(sha256: string): Promise<Buffer> {
    const path = this.pathOf(sha256);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      throw new EditInputError(
        `The picture or mask this edit sends is missing from the data folder (${path}: ` +
          `${errnoCode(error) ?? (error as Error).message}). Start the edit again from its source.`,
      );
    }
    if (digest(bytes) !== sha256) {
      throw new EditInputError(
        `The picture or mask this edit sends was changed on disk (${path}); it is not sent. ` +
          'Start the edit again from its source.',
      );
    }
    return bytes;
  }

  /**
   * Deletes inputs no job names (`inUse`), and temp files a crash left, older than `graceMs`:
   * an edit being created writes its inputs before its jobs are committed. Returns how many.
   */
  async sweep(inUse: ReadonlySet<string>, options: { now?: number; graceMs?: number } = {}) {
    const cutoff = (options.now ?? Date.now()) - (options.graceMs ?? 3_600_000);
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const sha256 = INPUT_NAME.exec(name)?.[1];
      const unused = sha256 !== undefined ? !inUse.has(sha256) : isTempFileName(name);
      if (!unused) continue;
      const path = join(this.dir, name);
      try {
        const stats = await lstat(path);
        if (!stats.isFile() || stats.mtimeMs > cutoff) continue;
        await unlink(path);
        removed++;
      } catch {
        // gone meanwhile: fine
      }
    }
    return removed;
  }

  private async holds(path: string, sha256: string): Promise<boolean> {
    try {
      return digest(await readFile(path)) === sha256;
    } catch {
      return false;
    }
  }
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Removes the inputs no job needs any more (after a batch is deleted), in the background: a
 * failure is a line on the logger, never the caller's.
 */
export async function sweepUnusedInputs(store: Store, log: Logger): Promise<void> {
  try {
    await EditInputFiles.of(store).sweep(store.edits.inputsInUse());
  } catch (error) {
    log.warn(`Unused edit inputs could not be removed: ${(error as Error).message}`);
  }
}
