import { writeFileAtomically } from './atomic-write.ts';
import { sourceChunks, type ImageSource } from './image-source.ts';
import type { LibraryFs } from './library-fs.ts';
import { LibraryWriteError } from './write-error.ts';

export interface WrittenVideo {
  path: string;
  bytes: number;
  sha256: string;
  format: 'mp4';
}

const VIDEO_ACTIONS = { write: 'write the video', place: 'write the video' };

/**
 * Writes a video (streamed, never buffered whole) with writeFileAtomically, as writeImage
 * writes a picture, after checking that it starts with an ISO media header ('ftyp').
 */
export async function writeVideo(
  source: ImageSource,
  targetPath: string,
  options: { signal?: AbortSignal; fs?: LibraryFs } = {},
): Promise<WrittenVideo> {
  const { bytes, sha256 } = await writeFileAtomically(
    targetPath,
    async (temp) => {
      let head = Buffer.alloc(0);
      for await (const chunk of sourceChunks(source, options.signal)) {
        if (head.length < 12) head = Buffer.concat([head, chunk.subarray(0, 12 - head.length)]);
        await temp.write(chunk);
      }
      if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') {
        throw new LibraryWriteError(
          temp.bytes === 0 ? 'truncated' : 'wrong-format',
          `The video download is not an MP4 file (${temp.bytes} bytes received). Retry the download.`,
        );
      }
    },
    { fs: options.fs, signal: options.signal, actions: VIDEO_ACTIONS },
  );
  return { path: targetPath, bytes, sha256, format: 'mp4' };
}
