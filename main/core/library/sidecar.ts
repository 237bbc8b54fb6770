import { replaceFileAtomically } from './atomic-write.ts';
import { defaultLibraryFs, type LibraryFs } from './library-fs.ts';
import { withSoftware, type ImageMetadata } from './metadata.ts';
import type { ImageFileFacts } from './write-image.ts';
import { fromFsError } from './write-error.ts';

/** The sidecar's content: the metadata plus what was written. Version it for later readers. */
export function sidecarDocument(metadata: ImageMetadata, image: ImageFileFacts): object {
  return {
    version: 1,
    ...withSoftware(metadata),
    file: {
      format: image.format,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      sha256: image.sha256,
    },
  };
}

/**
 * Writes the sidecar JSON at `sidecarPath` (chosen by the caller, beside the image) atomically;
 * a sidecar left from an earlier attempt is replaced.
 */
export async function writeSidecar(
  sidecarPath: string,
  metadata: ImageMetadata,
  image: ImageFileFacts,
  options: { fs?: LibraryFs } = {},
): Promise<string> {
  const json = `${JSON.stringify(sidecarDocument(metadata, image), null, 2)}\n`;
  try {
    await replaceFileAtomically(
      options.fs ?? defaultLibraryFs,
      sidecarPath,
      Buffer.from(json, 'utf8'),
    );
  } catch (error) {
    throw fromFsError(error, 'write the sidecar', sidecarPath);
  }
  return sidecarPath;
}
