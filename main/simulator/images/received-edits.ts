import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { PictureInfo } from './picture-info.ts';

/** A file of an edit as the gateway received it. */
export interface ReceivedFile {
  bytes: number;
  sha256: string;
  width: number;
  height: number;
  format: string;
  hasAlpha: boolean;
}

export interface ReceivedMask extends ReceivedFile {
  /** Pixels whose alpha is below half: where the image may change. */
  transparent: number;
  /** Pixels neither fully transparent nor fully opaque (a soft edge). */
  partial: number;
}

/** One edit the gateway accepted, as it received it: what a test checks a client sent. */
export interface ReceivedEdit {
  requestId: string;
  model: string;
  body: 'multipart' | 'json';
  /** The picture's multipart part name; null for a JSON body. */
  imageField: 'image' | 'image[]' | null;
  /** The text fields (multipart), or the JSON body's fields besides its messages. */
  fields: Record<string, string>;
  image: ReceivedFile;
  mask: ReceivedMask | null;
}

/** How many are kept: enough for any test, bounded for a demo that runs all day. */
const KEPT = 200;

/** The last edits the gateway accepted, oldest first. */
export class ReceivedEdits {
  private readonly list: ReceivedEdit[] = [];

  add(edit: ReceivedEdit): void {
    this.list.push(edit);
    if (this.list.length > KEPT) this.list.shift();
  }

  all(): ReceivedEdit[] {
    return [...this.list];
  }
}

export function receivedFile(bytes: Buffer, info: PictureInfo): ReceivedFile {
  return {
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    width: info.width,
    height: info.height,
    format: info.format,
    hasAlpha: info.hasAlpha,
  };
}

export async function receivedMask(bytes: Buffer, info: PictureInfo): Promise<ReceivedMask> {
  const alpha = await sharp(bytes).ensureAlpha().extractChannel(3).raw().toBuffer();
  let transparent = 0;
  let partial = 0;
  for (const value of alpha) {
    if (value < 128) transparent++;
    if (value !== 0 && value !== 255) partial++;
  }
  return { ...receivedFile(bytes, info), transparent, partial };
}
