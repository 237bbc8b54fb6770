import { readdir, readFile, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { GatewayClient } from '../gateway/client.ts';
import { replaceFileAtomically } from '../library/atomic-write.ts';
import { realPathInside } from '../library/containment.ts';
import { defaultLibraryFs, isTempFileName, makeFolder } from '../library/library-fs.ts';
import type { Store } from '../store/store.ts';

/**
 * Answers the gateway returned (and charged) while the data folder could not record them (its
 * disk full or read-only) are kept in the library, which may still have room, in this hidden
 * folder; the next start records them as if they had just arrived, so nothing is generated
 * twice. One JSON file per answer, written atomically.
 */
export const UNRECORDED_FOLDER = '.atelier-unrecorded';

const AnswerSchema = z.object({
  version: z.literal(1),
  jobId: z.number().int(),
  attemptId: z.number().int(),
  // the job's identity beyond its id: another data folder may share this library
  batchDir: z.string(),
  prompt: z.string(),
  receivedAt: z.number(),
  httpStatus: z.number().nullable(),
  requestId: z.string().nullable(),
  upstreamRequestId: z.string().nullable(),
  partial: z.boolean(),
  images: z
    .array(
      z.object({
        url: z.string().nullable(),
        /** base64 of the image bytes, when they were in hand (or could be fetched). */
        b64: z.string().nullable(),
        revisedPrompt: z.string().nullable(),
        /** The seed the gateway said it used (kept since v8; older files have none). */
        seed: z.number().int().nullable().optional(),
      }),
    )
    .min(1),
});

export type UnrecordedAnswer = z.infer<typeof AnswerSchema>;

/**
 * Fills in the bytes of images that came as links, so the answer no longer depends on a link
 * that expires. A link that cannot be read now stays a link.
 */
export async function fetchLinkedBytes(
  client: GatewayClient,
  images: UnrecordedAnswer['images'],
): Promise<UnrecordedAnswer['images']> {
  return Promise.all(
    images.map(async (image) => {
      if (image.b64 || !image.url) return image;
      try {
        const download = await client.downloadImage(image.url, {
          signal: AbortSignal.timeout(30_000),
        });
        if (!download.ok) return image;
        const bytes = Buffer.from(await new Response(download.value.body).arrayBuffer());
        return bytes.length > 0 ? { ...image, b64: bytes.toString('base64') } : image;
      } catch {
        return image;
      }
    }),
  );
}

/** Writes the answer into the library's folder for unrecorded answers (fsynced). */
export async function keepUnrecordedAnswer(
  libraryDir: string,
  answer: UnrecordedAnswer,
): Promise<void> {
  const dir = await unrecordedFolder(libraryDir);
  await makeFolder(defaultLibraryFs, dir);
  await replaceFileAtomically(
    defaultLibraryFs,
    join(dir, `job-${answer.jobId}-attempt-${answer.attemptId}.json`),
    Buffer.from(JSON.stringify(answer)),
  );
}

/**
 * At start, holding the queue and before crash recovery (which would settle these jobs as
 * uncertain): records each kept answer whose job still waits for it, exactly as its arrival
 * would have (attempt closed, images stored with their bytes or links, job succeeded), then
 * removes its file. A file whose job was settled since is removed; one that names no job of
 * this data folder is left alone. Returns how many answers were recorded.
 */
export async function recordUnrecordedAnswers(store: Store, libraryDir: string, now: number) {
  let dir: string;
  let names: string[];
  try {
    // (a folder that a link leads out of the library is neither read nor emptied)
    dir = await unrecordedFolder(libraryDir);
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let recorded = 0;
  for (const name of names) {
    const path = join(dir, name);
    if (isTempFileName(name)) {
      await unlink(path).catch(() => undefined); // a write cut short: its answer is whole elsewhere or lost
      continue;
    }
    const answer = await readAnswer(path);
    if (!answer) continue;
    const outcome = recordAnswer(store, answer, now);
    if (outcome === 'foreign') continue;
    if (outcome === 'recorded') recorded++;
    await unlink(path);
  }
  // (only once empty: files left for another data folder keep it)
  await rmdir(dir).catch(() => undefined);
  return recorded;
}

/** The folder's real path, inside the library (containment.ts), else an OutsideLibraryError. */
function unrecordedFolder(libraryDir: string): Promise<string> {
  return realPathInside(libraryDir, join(libraryDir, UNRECORDED_FOLDER), 'keep answers in');
}

async function readAnswer(path: string): Promise<UnrecordedAnswer | null> {
  try {
    return AnswerSchema.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch {
    return null;
  }
}

function recordAnswer(
  store: Store,
  answer: UnrecordedAnswer,
  now: number,
): 'recorded' | 'settled' | 'foreign' {
  const job = store.jobs.get(answer.jobId);
  const batch = job && store.batches.get(job.batchId);
  if (!job || !batch || job.prompt !== answer.prompt || batch.dirName !== answer.batchDir) {
    return 'foreign';
  }
  const attempt = store.attempts.listForJob(job.id).find((a) => a.id === answer.attemptId);
  if (!attempt) return 'foreign';
  if (job.state !== 'running' || attempt.endedAt !== null) return 'settled';
  const { images, partial } = answer;
  store.transaction(() => {
    store.attempts.finish(attempt.id, {
      now: answer.receivedAt,
      outcome: partial ? 'partial' : 'succeeded',
      httpStatus: answer.httpStatus,
      requestId: answer.requestId,
      upstreamRequestId: answer.upstreamRequestId,
    });
    store.images.addResults(
      job.id,
      images.map((image, i) => ({
        idx: job.imageOffset + i + 1,
        url: image.url,
        b64: image.b64,
        revisedPrompt: image.revisedPrompt,
        seed: image.seed ?? null,
      })),
      now,
    );
    store.jobs.succeed(job.id, {
      returnedN: images.length,
      now,
      ...(partial ? { reason: `partial: ${images.length} of ${job.n} images` } : {}),
    });
  });
  return 'recorded';
}
