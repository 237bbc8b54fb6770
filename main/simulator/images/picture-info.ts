import sharp from 'sharp';
import { badRequest } from '../http.ts';

export interface PictureInfo {
  width: number;
  height: number;
  /** As sharp names it: png, jpeg, webp… */
  format: string;
  hasAlpha: boolean;
}

/** Checks that the bytes are a picture sharp can read; 400 naming the field otherwise. */
export async function inspectPicture(bytes: Buffer, param: string): Promise<PictureInfo> {
  try {
    const { width, height, format, hasAlpha } = await sharp(bytes).metadata();
    if (width && height) return { width, height, format: format ?? 'unknown', hasAlpha };
  } catch {
    // Reported below.
  }
  throw badRequest(
    'invalid_image',
    `"${param}" is not a readable picture. Send a PNG, JPEG or WebP file.`,
    param,
  );
}
