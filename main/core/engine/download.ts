import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadSharp } from '../library/load-sharp.ts';
import { join } from 'node:path';
import type { Download, GatewayFailure } from '../../../shared/gateway/outcome.ts';
import {
  detectImageFormat,
  FORMAT_MAGIC_BYTES,
  type ImageFormat,
} from '../library/image-format.ts';
import {
  containment,
  OutsideLibraryError,
  realPathInside,
  realPathOfNew,
} from '../library/containment.ts';
import { writeImageExtras } from '../library/image-extras.ts';
import type { ImageMetadata } from '../library/metadata.ts';
import { nameCandidates, renderRelativePath, resolveInsideLibrary } from '../library/naming.ts';
import { sourceBroke } from '../library/image-source.ts';
import { writeImage, type ImageFileFacts, type WrittenImage } from '../library/write-image.ts';
import { LibraryWriteError } from '../library/write-error.ts';
import { thumbnailPath } from '../library/thumbnail.ts';
import { writeVideo } from '../library/write-video.ts';
import {
  NOT_AN_IMAGE_CODE,
  URL_EXPIRED_CODE,
  type DownloadedFile,
} from '../store/image-repository.ts';
import type { Batch, Image, Job } from '../store/rows.ts';
import { GatewayError } from '../gateway/client.ts';
import { BodyIdle, BodyTooLarge } from '../gateway/http/answer-body.ts';
import { asFinal } from '../gateway/classify/retry-wording.ts';
import { mayRetry, retryDelayMs } from './backoff.ts';
import { downloadFailureReason, streamFailureReason } from './download-failure.ts';
import type { EngineContext } from './context.ts';
import type { ImageWritten, PreparedDownload } from './download-types.ts';
import { limitBody, stalled, tooLarge } from './download-limits.ts';
import { expectedFormat, metadataFor, namingInputFor } from './job-request.ts';
import { editedResult, withEditMetadata } from './edit-result.ts';
import { writeVideoPoster } from './video-poster.ts';

/**
 * Library failures that no retry of the same download can mend: the person must act. Every
 * failure of the disk is one: going on would keep generating (and paying for) images that
 * cannot be written, while their links expire.
 */
export const STOPS_THE_QUEUE: ReadonlySet<string> = new Set(['disk-full', 'unwritable', 'io']);

/** What the library says of bytes that are no usable image: the same bytes stay so. */
const NOT_AN_IMAGE: ReadonlySet<string> = new Set(['wrong-format', 'corrupt', 'too-many-pixels']);

/** Records an image's "done" in the next grouped commit; resolves to whether it committed. */
export type { ImageWritten, PreparedDownload };

export type MarkDone = (write: () => void) => Promise<boolean>;

/**
 * Runs inside the claim's transaction: an image whose bytes the database holds gets its name
 * reserved there, so many claimed images cost one commit, not one each. `inHand`: the same
 * bytes, still in memory from the answer (not read back).
 */
export function prepareDownload(
  ctx: EngineContext,
  image: Image,
  lookup: { job: Job; batch: Batch },
  inHand?: Buffer,
): PreparedDownload | null {
  const bytes = inHand ?? (image.hasPayload ? ctx.store.images.payload(image.id) : undefined);
  if (!bytes) return { image, ...lookup, payload: null };
  const format = detectImageFormat(bytes) ?? expectedFormat(lookup.job);
  try {
    // No look at the disk: the write links the file into place only where none is, and
    // recognizes its own file there by content (see runDownload).
    const relPath =
      image.relPath ?? reserveName(ctx, image, lookup.batch, lookup.job, format, false);
    return { image, ...lookup, payload: { bytes, format, relPath } };
  } catch (error) {
    // No free name: this image fails with the reason, and the claim around it goes on.
    if (!(error instanceof LibraryWriteError)) throw error;
    settle(ctx, image, error.kind, error.message, false);
    return null;
  }
}

/**
 * Writes one image (already `downloading`) into the library, from its stored bytes or by
 * streaming its URL. Never calls a generation endpoint: a failed download is retried from
 * what the database holds, or left `failed` with its reason for "retry downloads".
 */
export async function runDownload(
  ctx: EngineContext,
  prepared: PreparedDownload,
  signal: AbortSignal,
  markDone: MarkDone,
): Promise<void> {
  const { image, job, batch, payload } = prepared;
  try {
    // With the bytes at hand, writing again is the check: a file of the same content at the
    // name is this image's (see writeImage); without them, a file there is adopted.
    if (!payload && image.relPath && (await adoptFileInPlace(ctx, prepared, signal, markDone))) {
      return;
    }
    const source = payload
      ? { body: payload.bytes, format: payload.format }
      : await openSource(ctx, image, job, signal);
    if ('failure' in source) {
      if (signal.aborted) return backToPending(ctx, image);
      return failDownload(ctx, image, source.failure, job.kind);
    }
    let relPath =
      payload?.relPath ??
      image.relPath ??
      (await reserveNameInGroup(ctx, image, batch, job, source.format));
    const target = await insideLibrary(ctx, relPath);
    if (job.kind === 'video') {
      const video = await writeVideo(source.body, target, { signal });
      const committed = recordDone(ctx, image, { ...video, width: 0, height: 0 }, markDone);
      // in the download's slot, as an image's thumbnail: the event can then say it is there
      const poster = await writeVideoPoster(ctx, job, target, signal);
      return announceWritten(ctx, prepared, relPath, committed, poster);
    }
    const { body, metadata } = await editedResult(
      ctx,
      job,
      source,
      metadataFor(batch, job, image.idx),
      signal,
    );
    const write = (path: string) =>
      writeImage(body, path, {
        metadata,
        format: source.format as ImageFormat,
        maxPixels: ctx.limits.maxImagePixels,
        signal,
        placer: ctx.placer,
      });
    let written: WrittenImage;
    try {
      written = await write(target);
    } catch (error) {
      // Bytes named without a look at the disk met a file that is not theirs: the next free
      // name, checked on disk this time.
      if (!payload || !(error instanceof LibraryWriteError) || error.kind !== 'target-exists') {
        throw error;
      }
      ctx.store.images.releasePath(image.id, ctx.now());
      relPath = reserveName(ctx, image, batch, job, source.format, true);
      written = await write(await insideLibrary(ctx, relPath));
    }
    // the extras first: once "done" commits, the batch may finish, and a person (or a script
    // reading manifest.csv) must then find every row; a crash between the two adopts the file,
    // whose manifest row is then not written twice (foundInPlace)
    const thumbnail = await writeExtras(ctx, batch, metadata, written, written.alreadyPresent);
    const committed = recordDone(ctx, image, written, markDone);
    announceWritten(ctx, prepared, relPath, committed, thumbnail);
  } catch (error) {
    if (signal.aborted) return backToPending(ctx, image);
    if (!(error instanceof LibraryWriteError)) throw error;
    failWrite(ctx, image, job, error);
  }
}

/**
 * A write that failed, by what failed: bytes that are no image and a file over the size cap
 * stay so (final); a full disk pauses the queue; the rest is tried again after a backoff.
 */
function failWrite(ctx: EngineContext, image: Image, job: Job, error: LibraryWriteError): void {
  if (job.kind === 'image' && NOT_AN_IMAGE.has(error.kind)) {
    const reason = `What the gateway gave for this image is not an image Atelier can use. ${error.message}`;
    return settle(ctx, image, NOT_AN_IMAGE_CODE, reason, false);
  }
  // Another file sits at the name: give the name up, so the retry picks the next free one
  // (and never mistakes that file for this image).
  if (error.kind === 'target-exists') ctx.store.images.releasePath(image.id, ctx.now());
  const retryable = !STOPS_THE_QUEUE.has(error.kind) && error.kind !== 'too-large';
  // (a body cut off on the way: the picture was made, only its fetching failed)
  const broken = error.kind === 'network' || error.kind === 'stalled';
  const reason = broken ? streamFailureReason(error, job.kind) : error.message;
  settle(ctx, image, error.kind, reason, retryable);
  if (STOPS_THE_QUEUE.has(error.kind)) ctx.pauseQueue(error.message, error.kind, 'disk');
}

/**
 * A crash between placing a file and committing its "done" leaves the file at its reserved
 * path (placed atomically, so whole). Adopt it instead of downloading again: the link may have
 * expired since, and the file is the paid result. It gets what a written image gets.
 */
async function adoptFileInPlace(
  ctx: EngineContext,
  prepared: PreparedDownload,
  signal: AbortSignal,
  markDone: MarkDone,
): Promise<boolean> {
  const { image, job, batch } = prepared;
  const path = resolveInsideLibrary(ctx.libraryDir, image.relPath!);
  // a file there that a link leads out of the library is not this image's: never read
  if (!(await containment(ctx.libraryRoot(), path)).inside) return false;
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return false;
  }
  const sha256 = () => createHash('sha256').update(bytes).digest('hex');
  if (job.kind === 'video') {
    // (no sidecar or manifest row for a video, written or adopted: only its poster)
    const video = { format: 'mp4', width: 0, height: 0, bytes: bytes.length, sha256: sha256() };
    const committed = recordDone(ctx, image, video, markDone);
    const poster =
      ctx.output.thumbnails &&
      (existsSync(thumbnailPath(path)) || (await writeVideoPoster(ctx, job, path, signal)));
    announceWritten(ctx, prepared, image.relPath!, committed, poster);
    return true;
  }
  const format = detectImageFormat(bytes);
  const sharp = format ? await loadSharp() : null;
  const meta = sharp
    ? await sharp(bytes)
        .metadata()
        .catch(() => null)
    : null;
  if (!format || !meta?.width || !meta.height) return false;
  const file: ImageFileFacts = {
    path,
    format,
    width: meta.width,
    height: meta.height,
    bytes: bytes.length,
    sha256: sha256(),
  };
  const metadata = withEditMetadata(
    metadataFor(batch, job, image.idx),
    ctx.store.edits.ofJob(job.id),
  );
  const thumbnail = await writeExtras(ctx, batch, metadata, file, true);
  const committed = recordDone(ctx, image, file, markDone);
  announceWritten(ctx, prepared, image.relPath!, committed, thumbnail);
  return true;
}

/**
 * Where an image's file goes: its path in the library, refused (as unwritable: the queue
 * pauses, the person must act) when a link on the way leads out of the library.
 */
async function insideLibrary(ctx: EngineContext, relPath: string): Promise<string> {
  const path = resolveInsideLibrary(ctx.libraryDir, relPath);
  try {
    await realPathInside(ctx.libraryDir, path, 'write the image', ctx.libraryRoot(), realPathOfNew);
  } catch (error) {
    if (!(error instanceof OutsideLibraryError)) throw error;
    throw new LibraryWriteError('unwritable', error.message, { cause: error });
  }
  // (the path as named, not its real one: the manifest names files relative to the batch)
  return path;
}

/** Stopped, not failed: it goes back to pending and runs again next time. */
function backToPending(ctx: EngineContext, image: Image): void {
  ctx.store.images.markDownloadFailed(image.id, {
    code: 'interrupted',
    reason: 'The download was interrupted; it will run again.',
    retryAt: ctx.now(),
    now: ctx.now(),
    refundTry: true,
  });
}

/**
 * The file is fsynced and in place: its "done" mark joins the next grouped commit (a lost mark
 * only means the next run finds the file there and adopts it). Resolves once it committed.
 */
function recordDone(
  ctx: EngineContext,
  image: Image,
  file: Omit<DownloadedFile, 'now'>,
  markDone: MarkDone,
): Promise<boolean> {
  const now = ctx.now();
  const { bytes, sha256, width, height, format } = file;
  const committed = markDone(() =>
    ctx.store.images.markDone(image.id, { bytes, sha256, width, height, format, now }),
  );
  ctx.stats.imagesWritten++;
  ctx.stats.bytesWritten += bytes;
  return committed;
}

/**
 * Once the "done" mark commits (the extras are written already), tells the engine's listeners.
 * Not awaited: the download's slot frees without waiting for the lazy commit.
 */
function announceWritten(
  ctx: EngineContext,
  { image, job }: PreparedDownload,
  relPath: string,
  committed: Promise<boolean>,
  thumbnail: boolean,
): void {
  void committed.then((done) => {
    if (done) {
      ctx.imageWritten({
        imageId: image.id,
        jobId: job.id,
        batchId: job.batchId,
        relPath,
        thumbnail,
      });
    }
  });
}

type Source =
  { body: Uint8Array | ReadableStream<Uint8Array>; format: string } | { failure: GatewayFailure };

async function openSource(
  ctx: EngineContext,
  image: Image,
  job: Job,
  signal: AbortSignal,
): Promise<Source> {
  if (!image.sourceUrl) {
    throw new LibraryWriteError(
      'corrupt',
      'The gateway gave neither a link nor image data for this image.',
    );
  }
  const download = await ctx.client.downloadImage(image.sourceUrl, { signal });
  if (!download.ok) return { failure: download };
  const kind = job.kind === 'video' ? 'video' : 'image';
  const { limits } = ctx;
  const maxBytes = kind === 'video' ? limits.maxVideoBytes : limits.maxImageBytes;
  const announced = download.value.contentLength;
  if (announced !== null && announced > maxBytes) {
    // Refused before a byte is read: the link says it is too large.
    await download.value.body.cancel().catch(() => {});
    throw tooLarge(kind, maxBytes, announced);
  }
  if (kind === 'image' && announced !== null && announced <= READ_WHOLE_MAX_BYTES) {
    return readWhole(download.value, job, { maxBytes, idleMs: limits.idleMs });
  }
  const limited = limitBody(download.value.body, { kind, maxBytes, idleMs: limits.idleMs });
  if (kind === 'video') return { body: limited, format: 'mp4' };
  // Look at the first bytes to name the file by what it is, not by what was asked.
  let peeked: { head: Uint8Array; body: ReadableStream<Uint8Array> };
  try {
    peeked = await peek(limited, FORMAT_MAGIC_BYTES);
  } catch (error) {
    // The connection failed in the first bytes: a download failure like any other.
    if (error instanceof GatewayError) return { failure: error.failure };
    throw error;
  }
  return { body: peeked.body, format: detectImageFormat(peeked.head) ?? expectedFormat(job) };
}

/**
 * A download announced this small is read whole, then written by the file placer's thread
 * like an image that came as data: one message instead of a stream and seven file system
 * round trips on the engine's thread (most images: a 1024×1024 JPEG or WebP is 0.1–0.5 MB).
 * The download pool holds at most its size times this in memory.
 */
const READ_WHOLE_MAX_BYTES = 2 * 2 ** 20;

/**
 * A small image's body in one read, without the streams a large one goes through (about 40 µs
 * of CPU less per image), held to the same limits and failing the same ways: a failure in its
 * first bytes is the download's, a later one the write's ('network'), as when streamed.
 */
async function readWhole(
  download: Download,
  job: Job,
  limits: { maxBytes: number; idleMs: number },
): Promise<Source> {
  const read = await download.whole(limits);
  if ('bytes' in read) {
    const { buffer, byteOffset, byteLength } = read.bytes;
    const body = Buffer.from(buffer, byteOffset, byteLength);
    return { body, format: detectImageFormat(body) ?? expectedFormat(job) };
  }
  const { error, received } = read;
  if (error instanceof BodyTooLarge) throw tooLarge('image', limits.maxBytes, null);
  if (error instanceof BodyIdle) throw stalled(limits.idleMs, received);
  if (error instanceof GatewayError && received < FORMAT_MAGIC_BYTES) {
    return { failure: error.failure };
  }
  throw sourceBroke(error, received);
}

/** Reads at least `bytes` from a stream and returns them with a stream that still yields everything. */
async function peek(
  stream: ReadableStream<Uint8Array>,
  bytes: number,
): Promise<{ head: Uint8Array; body: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  const head = Buffer.concat(chunks);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head, body };
}

/**
 * The name an image whose bytes are at hand will be inserted with (see ImageResult.relPath):
 * the first not taken in the store, in the insert's transaction. No look at the disk, as in
 * reserveName without `checkDisk`. Naming at the insert saves the separate reservation. Null
 * when every name is taken: prepareDownload then fails the image with the reason.
 */
export function nameForInsert(
  ctx: EngineContext,
  lookup: { job: Job; batch: Batch },
  idx: number,
  bytes: Buffer,
): string | null {
  const format = detectImageFormat(bytes) ?? expectedFormat(lookup.job);
  const wanted = wantedName(ctx, lookup.batch, lookup.job, idx, format);
  for (const candidate of nameCandidates(wanted)) {
    if (!ctx.store.images.isPathTaken(candidate)) return candidate;
  }
  return null;
}

/** The name the template gives the image; nameCandidates then adds ~2, ~3… when taken. */
function wantedName(ctx: EngineContext, batch: Batch, job: Job, idx: number, format: string) {
  return renderRelativePath(ctx.namingTemplate, namingInputFor(batch, job, idx, format));
}

/**
 * The first free name for the image, reserved in the store and, with `checkDisk`, absent from
 * the disk. Without it (bytes in hand), a file found at the name when linking is compared and
 * the next name taken then: a look at the disk per image costs the engine's thread more than
 * the rare collision.
 */
function reserveName(
  ctx: EngineContext,
  image: Image,
  batch: Batch,
  job: Job,
  format: string,
  checkDisk = true,
): string {
  const wanted = wantedName(ctx, batch, job, image.idx, format);
  for (const candidate of nameCandidates(wanted)) {
    if (checkDisk && existsSync(resolveInsideLibrary(ctx.libraryDir, candidate))) continue;
    if (ctx.store.images.reservePath(image.id, candidate, ctx.now())) return candidate;
  }
  throw new LibraryWriteError('target-exists', `Every name like "${wanted}" is taken.`);
}

/**
 * reserveName, with its look at the disk, in the scheduler's next grouped commit: a commit of
 * its own for each downloaded image cost a run of linked images about 5% of its CPU.
 */
async function reserveNameInGroup(
  ctx: EngineContext,
  image: Image,
  batch: Batch,
  job: Job,
  format: string,
): Promise<string> {
  let relPath = '';
  await ctx.commitWrite(() => {
    relPath = reserveName(ctx, image, batch, job, format);
  });
  return relPath;
}

function failDownload(
  ctx: EngineContext,
  image: Image,
  failure: GatewayFailure,
  kind: Job['kind'],
): void {
  const expired = failure.kind === 'expired-link';
  const retryable = !expired && failure.decision !== 'fail' && failure.decision !== 'pause-queue';
  settle(
    ctx,
    image,
    expired ? URL_EXPIRED_CODE : (failure.code ?? failure.kind),
    downloadFailureReason(failure, kind),
    retryable,
  );
}

/** Back to pending after a backoff while tries remain; otherwise failed, with the reason kept. */
function settle(
  ctx: EngineContext,
  image: Image,
  code: string,
  reason: string,
  retryable: boolean,
): void {
  const now = ctx.now();
  const again = retryable && mayRetry(ctx.downloadBackoff, image.downloadTries);
  const retryAt = again
    ? now + retryDelayMs(ctx.downloadBackoff, image.downloadTries, null, ctx.random)
    : null;
  // Its tries used up, a retryable failure must not promise another.
  const said = retryable && !again ? asFinal(reason, image.downloadTries) : reason;
  ctx.store.images.markDownloadFailed(image.id, { code, reason: said, retryAt, now });
  ctx.downloadChanged(image);
  if (retryAt !== null) ctx.wakeAt(retryAt);
}

/**
 * Sidecar, manifest row, thumbnail: wanted, but never a reason to fail an image on disk.
 * `foundInPlace`: the file was there before this run (see writeImageExtras). Resolves to
 * whether the thumbnail was written.
 */
async function writeExtras(
  ctx: EngineContext,
  batch: Batch,
  metadata: ImageMetadata,
  file: ImageFileFacts,
  foundInPlace: boolean,
): Promise<boolean> {
  const { failures, thumbnail } = await writeImageExtras(file, metadata, {
    wanted: ctx.output,
    library: ctx.libraryDir,
    batchDir: join(ctx.libraryDir, batch.dirName),
    foundInPlace,
  });
  for (const failure of failures) ctx.log.warn(failure.message);
  return thumbnail;
}
