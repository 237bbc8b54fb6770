/**
 * The file placer's thread (see file-placer.ts): finishes an image in memory (metadata, header
 * check, hash) and puts it on disk the way writeFileAtomically (atomic-write.ts) does in process
 * — a hidden temp file beside the target, fsynced, hard-linked into place (never over an
 * existing file), the temp removed, the folder fsynced — with blocking calls, which cost a
 * fraction of the event-loop round trips the asynchronous ones need: hence a copy of the steps,
 * not a shared function. Only the fsyncs, which wait for the disk, stay asynchronous, so one
 * thread keeps many writes going at once.
 */
import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import {
  errnoCode,
  makeFolderSync,
  NO_FOLDER_OPEN,
  NO_FOLDER_SYNC,
  NO_HARD_LINKS,
  tempPathIn,
} from './library-fs.ts';
import {
  unpackRequest,
  type PlacedImage,
  type PlaceReply,
  type PlaceRequest,
} from './file-placer.ts';
import { finishImageBytes, type FinishedImage } from './finish-image.ts';
import { LibraryWriteError } from './write-error.ts';

let replies: PlaceReply[] = [];

/** Replies leave together at the end of this turn: one message for many writes. */
function reply(message: PlaceReply): void {
  replies.push(message);
  if (replies.length === 1) setImmediate(sendReplies);
}

function sendReplies(): void {
  const batch = replies;
  replies = [];
  parentPort!.postMessage(batch);
}

function fail(id: number, error: unknown, action: string, path: string): void {
  reply({
    id,
    error: { code: errnoCode(error), message: (error as Error).message, action, path },
  });
}

function removeQuietly(path: string): void {
  try {
    fs.unlinkSync(path);
  } catch {
    // already gone, or the volume went away: nothing more to do here
  }
}

function openNew(dir: string, temp: string): number {
  try {
    return fs.openSync(temp, 'wx');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
    makeFolderSync(dir);
    return fs.openSync(temp, 'wx');
  }
}

function place({ id, dir, target, source, finish }: PlaceRequest): void {
  let image: FinishedImage;
  try {
    image = finishImageBytes(source, finish);
  } catch (error) {
    if (!(error instanceof LibraryWriteError)) return fail(id, error, 'write the image', target);
    return reply({ id, refused: { kind: error.kind, message: error.message } });
  }
  const { out: bytes, ...facts } = image;
  const placedImage = (placed: boolean): PlacedImage => ({ placed, bytes: bytes.length, ...facts });
  const temp = tempPathIn(dir);
  let opened: number | undefined;
  try {
    opened = openNew(dir, temp);
    for (let offset = 0; offset < bytes.length;) {
      offset += fs.writeSync(opened, bytes, offset, bytes.length - offset);
    }
  } catch (error) {
    if (opened !== undefined) {
      closeQuietly(opened);
      removeQuietly(temp);
    }
    return fail(id, error, 'write the image', target);
  }
  const fd = opened;
  fs.fsync(fd, (syncError) => {
    closeQuietly(fd);
    if (syncError) {
      removeQuietly(temp);
      return fail(id, syncError, 'write the image', target);
    }
    let placed: boolean;
    try {
      placed = linkWithoutOverwrite(temp, target);
    } catch (error) {
      removeQuietly(temp);
      return fail(id, error, 'move the image into place', target);
    }
    if (!placed) return reply({ id, ...placedImage(false) });
    syncDirectory(dir, (error) =>
      error
        ? fail(id, error, 'move the image into place', target)
        : reply({ id, ...placedImage(true) }),
    );
  });
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // after an fsync there is nothing left for close to report
  }
}

/**
 * False when a file already sits at the target (the caller compares it). The temp is gone
 * afterwards either way. As placeWithoutOverwrite, with check-then-rename where links fail.
 */
function linkWithoutOverwrite(temp: string, target: string): boolean {
  try {
    fs.linkSync(temp, target);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') {
      removeQuietly(temp);
      return false;
    }
    if (!NO_HARD_LINKS.has(code ?? '')) throw error;
    if (fs.existsSync(target)) {
      removeQuietly(temp);
      return false;
    }
    fs.renameSync(temp, target);
    return true;
  }
  removeQuietly(temp);
  return true;
}

/**
 * Per folder: callers waiting for the fsync running now, and those that arrived after it
 * started (their link may have missed it), who get the next one. Many images finishing
 * together in one batch folder cost a few folder fsyncs, not one each.
 */
const folders = new Map<
  string,
  { running: Array<(e?: unknown) => void>; next: Array<(e?: unknown) => void> }
>();

function syncDirectory(dir: string, done: (error?: unknown) => void): void {
  const state = folders.get(dir);
  if (state) {
    state.next.push(done);
    return;
  }
  folders.set(dir, { running: [done], next: [] });
  startDirectorySync(dir);
}

function startDirectorySync(dir: string): void {
  const finish = (error?: unknown) => {
    const state = folders.get(dir)!;
    for (const done of state.running) done(error);
    if (state.next.length === 0) {
      folders.delete(dir);
      return;
    }
    state.running = state.next;
    state.next = [];
    startDirectorySync(dir);
  };
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch (error) {
    return finish(NO_FOLDER_OPEN.has(errnoCode(error) ?? '') ? undefined : error);
  }
  fs.fsync(fd, (error) => {
    closeQuietly(fd);
    finish(error && !NO_FOLDER_SYNC.has(errnoCode(error) ?? '') ? error : undefined);
  });
}

parentPort!.on('message', (requests: ArrayBuffer[]) => {
  for (const request of requests) place(unpackRequest(request));
});
