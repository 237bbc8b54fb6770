export type ImageFormat = 'png' | 'jpeg' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes needed by detectImageFormat to decide. */
export const FORMAT_MAGIC_BYTES = 12;

/** The format named by the file's magic bytes, or null when it is none of ours. */
export function detectImageFormat(head: Uint8Array): ImageFormat | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpeg';
  }
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'webp';
  }
  return null;
}

/** Accepts the names a gateway or a file extension may use ("jpg", "image/png"...). */
export function parseImageFormat(name: string): ImageFormat | null {
  const lower = name
    .toLowerCase()
    .replace(/^image\//, '')
    .replace(/^\./, '');
  if (lower === 'png') return 'png';
  if (lower === 'jpeg' || lower === 'jpg') return 'jpeg';
  if (lower === 'webp') return 'webp';
  return null;
}

export { PNG_SIGNATURE };

/** Whether bytes too few for detectImageFormat could still be the start of one of ours. */
export function mayStartImage(head: Uint8Array): boolean {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const startsLike = (magic: Buffer, from = 0) => {
    const part = bytes.subarray(from, from + magic.length);
    return part.equals(magic.subarray(0, part.length));
  };
  return (
    startsLike(PNG_SIGNATURE) ||
    startsLike(Buffer.from([0xff, 0xd8, 0xff])) ||
    (startsLike(Buffer.from('RIFF', 'latin1')) && startsLike(Buffer.from('WEBP', 'latin1'), 8))
  );
}
