import type { GatewayFailure } from '../../../shared/gateway/outcome.ts';
import { GatewayError } from '../gateway/client.ts';
import { detectImageFormat, FORMAT_MAGIC_BYTES } from '../library/image-format.ts';
import { writeThumbnailFromBytes } from '../library/thumbnail.ts';
import { LibraryWriteError } from '../library/write-error.ts';
import type { Job } from '../store/rows.ts';
import type { EngineContext } from './context.ts';
import { limitBody } from './download-limits.ts';

/** What of the engine's context a poster needs. */
export type PosterContext = Pick<
  EngineContext,
  'client' | 'output' | 'limits' | 'log' | 'libraryDir'
>;

/** A still frame is far smaller; a bigger answer is not one (a gateway sending the video). */
export const MAX_POSTER_BYTES = 16 * 2 ** 20;
/** One small GET: a gateway slow to answer it is not worth holding a download slot for. */
const POSTER_TIMEOUTS = { responseMs: 15_000, totalMs: 30_000 };

/**
 * Best effort: fetches the finished task's `thumbnail` variant (GET …/content?variant=thumbnail,
 * which not every gateway offers) once, and writes it as the video's thumbnail, the poster the
 * gallery shows. Never throws and never retries: any failure is one info line, and the video
 * stays written. Only a GET of the finished task: no generation request. Resolves to whether
 * the poster was written.
 */
export async function writeVideoPoster(
  ctx: PosterContext,
  job: Pick<Job, 'videoTaskId'>,
  videoPath: string,
  signal: AbortSignal,
): Promise<boolean> {
  const taskId = job.videoTaskId;
  if (!ctx.output.thumbnails || !taskId || signal.aborted) return false;
  try {
    const answer = await ctx.client.downloadVideoContent(taskId, {
      signal,
      variant: 'thumbnail',
      timeouts: POSTER_TIMEOUTS,
    });
    if (signal.aborted) {
      if (answer.ok) await answer.value.body.cancel().catch(() => {});
      return false; // stopped: nothing to say
    }
    if (!answer.ok) return noPoster(ctx, videoPath, said(answer));
    const bytes = await readStill(answer.value.body, ctx.limits.idleMs, answer.value.contentLength);
    if (typeof bytes === 'string') return noPoster(ctx, videoPath, bytes);
    await writeThumbnailFromBytes(bytes, videoPath, {
      library: ctx.libraryDir,
      maxPixels: ctx.limits.maxImagePixels,
    });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    return noPoster(ctx, videoPath, reasonOf(error));
  }
}

/** The bytes of a still image, or why they are not one (read no further than needed to say). */
async function readStill(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  announced: number | null,
): Promise<Buffer | string> {
  if (announced !== null && announced > MAX_POSTER_BYTES) {
    await body.cancel().catch(() => {});
    return `it announced ${announced} bytes, more than a still frame`;
  }
  const reader = limitBody(body, { kind: 'image', maxBytes: MAX_POSTER_BYTES, idleMs }).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let checked = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (!checked && size >= FORMAT_MAGIC_BYTES) {
      checked = true;
      // e.g. a gateway that ignores the variant and sends the whole video again
      if (!detectImageFormat(Buffer.concat(chunks))) {
        await reader.cancel().catch(() => {});
        return 'what it sent is not a PNG, JPEG or WebP image';
      }
    }
  }
  const bytes = Buffer.concat(chunks);
  return detectImageFormat(bytes) ? bytes : 'what it sent is not a PNG, JPEG or WebP image';
}

function said(failure: GatewayFailure): string {
  if (failure.status === null) return `no answer (${failure.code ?? failure.kind})`;
  const code = failure.code ? ` ${failure.code}` : '';
  return `the gateway answered ${failure.status}${code}`;
}

/** Why reading or writing the poster failed, without the download's promise to retry. */
function reasonOf(error: unknown): string {
  if (error instanceof GatewayError) {
    return `its answer broke off (${error.failure.code ?? error.failure.kind})`;
  }
  if (error instanceof LibraryWriteError && error.kind === 'stalled') return 'its answer stalled';
  if (error instanceof LibraryWriteError && error.kind === 'too-large') {
    return `its answer passed ${MAX_POSTER_BYTES} bytes, more than a still frame`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** One line, not a warning: a gateway need not offer posters, and the video is written. */
function noPoster(ctx: PosterContext, videoPath: string, reason: string): false {
  ctx.log.info(
    `No poster for ${videoPath} from the gateway's thumbnail variant (${reason}); ` +
      'the gallery shows the video itself.',
  );
  return false;
}
