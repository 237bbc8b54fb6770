import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { resolveMediaPath } from '../library/media-path.ts';
import type { Store } from '../store/store.ts';
import type { EditPicture } from './edit-plan.ts';
import { PictureProblem } from './pictures.ts';

/**
 * Pictures of the gallery, by image id: the only way a window names what to edit, so a page
 * can send nothing but the library's own images (each read through the one containment rule:
 * a regular media file inside the library, no link leading out).
 */
export function galleryPictures(
  store: Store,
  libraryDir: string,
  ids: readonly number[],
): EditPicture[] {
  const found = new Map(store.gallery.byIds(ids).map((image) => [image.id, image]));
  return ids.map((id) => {
    const image = found.get(id);
    const label = image?.relPath ? `image ${id} (${image.relPath})` : `image ${id}`;
    return {
      label,
      name: image?.relPath ? basename(image.relPath) : `image ${id}`,
      imageId: id,
      async read() {
        if (!image) throw new PictureProblem(`Image ${id} does not exist (any more).`);
        if (image.kind === 'video')
          throw new PictureProblem(`Image ${id} is a video; edit a still image.`);
        if (image.downloadState !== 'done' || !image.relPath) {
          throw new PictureProblem(
            `Image ${id} is not on disk yet (its download is ${image.downloadState}).`,
          );
        }
        const encoded = image.relPath.split('/').map(encodeURIComponent).join('/');
        const path = await resolveMediaPath(libraryDir, encoded, 'image');
        if (!path) {
          throw new PictureProblem(
            `Image ${id}'s file (${image.relPath}) is missing, or not a file inside the library.`,
          );
        }
        return readPicture(path, `Image ${id}'s file`);
      },
    };
  });
}

/** A file the person named on the command line (the CLI trusts its user, as it does a prompt file). */
export function filePicture(path: string): EditPicture {
  return { label: path, name: basename(path), imageId: null, read: () => readPicture(path, path) };
}

async function readPicture(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'it does not exist'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new PictureProblem(`${what} cannot be read: ${why}.`);
  }
}
