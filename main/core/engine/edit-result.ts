import { basename } from 'node:path';
import { keepOutsideMask } from '../edits/keep-outside-mask.ts';
import { EditInputFiles } from '../edits/input-files.ts';
import type { ImageFormat } from '../library/image-format.ts';
import { sourceChunks, type ImageSource } from '../library/image-source.ts';
import type { ImageMetadata } from '../library/metadata.ts';
import type { JobEdit } from '../store/edit-repository.ts';
import type { Job } from '../store/rows.ts';
import type { EngineContext } from './context.ts';

/**
 * An edit's metadata says what it was made from: the gallery image (by its library path) or
 * the file's name (never its folders: the file may be shared), whether a mask limited it,
 * and whether the result was pasted back outside the mask.
 */
export function withEditMetadata(
  metadata: ImageMetadata,
  edit: JobEdit | undefined,
  keptOutsideMask = edit?.keepOutsideMask ?? false,
): ImageMetadata {
  if (!edit) return metadata;
  const parameters: Record<string, unknown> = {
    ...metadata.parameters,
    edited_from: edit.sourceImageId === null ? basename(edit.sourceLabel) : edit.sourceLabel,
    mask: edit.maskSha256 !== null,
  };
  if (keptOutsideMask) parameters.kept_outside_mask = true;
  return { ...metadata, parameters };
}

/**
 * What a download writes for an image of `job`: the gateway's bytes, or for an edit that asks
 * for it, those bytes pasted back over the picture outside the mask (see keepOutsideMask).
 * A result that cannot be pasted back (another shape, unreadable) is written as it came,
 * with a line on the logger, and its metadata does not claim the paste.
 */
export async function editedResult(
  ctx: EngineContext,
  job: Job,
  source: { body: ImageSource; format: string },
  metadata: ImageMetadata,
  signal: AbortSignal,
): Promise<{ body: ImageSource; metadata: ImageMetadata }> {
  const edit = job.kind === 'image' ? ctx.store.edits.ofJob(job.id) : undefined;
  if (!edit?.keepOutsideMask || edit.maskSha256 === null) {
    return { body: source.body, metadata: withEditMetadata(metadata, edit) };
  }
  // (a link's body is read whole: it is bounded by maxImageBytes, and the paste needs it all)
  const chunks: Buffer[] = [];
  for await (const chunk of sourceChunks(source.body, signal)) chunks.push(chunk);
  const result = Buffer.concat(chunks);
  try {
    const inputs = EditInputFiles.of(ctx.store);
    const [picture, mask] = await Promise.all([
      inputs.read(edit.imageSha256),
      inputs.read(edit.maskSha256),
    ]);
    const pasted = await keepOutsideMask(result, source.format as ImageFormat, picture, mask);
    return { body: pasted, metadata: withEditMetadata(metadata, edit, true) };
  } catch (error) {
    ctx.log.warn(
      `An edit of ${edit.sourceLabel} (job ${job.id}, image ${metadata.index + 1}) is written as the model made it, not pasted back outside the mask: ${(error as Error).message}.`,
    );
    return { body: result, metadata: withEditMetadata(metadata, edit, false) };
  }
}
