import { badRequest } from '../http.ts';
import type { ImageModelSpec } from '../models.ts';
import type { PictureInfo } from './picture-info.ts';

/**
 * What a strict gateway checks of an edit's files before any work (and any charge), as
 * OpenAI's edits endpoint does: each file within the model's size limit, a square picture
 * where the model wants one, and a mask that is a PNG with an alpha channel, exactly the
 * picture's size.
 */
export function checkEditFiles(
  model: ImageModelSpec,
  image: { bytes: Buffer; info: PictureInfo },
  mask: { bytes: Buffer; info: PictureInfo } | null,
): void {
  checkFileSize(model, image.bytes, 'image');
  if (model.editSquare && image.info.width !== image.info.height) {
    throw badRequest(
      'invalid_image',
      `Model "${model.id}" edits square images only; "image" is ${image.info.width}x${image.info.height}.`,
      'image',
    );
  }
  if (!mask) return;
  checkFileSize(model, mask.bytes, 'mask');
  if (mask.info.format !== 'png') {
    throw badRequest(
      'invalid_mask',
      `"mask" must be a PNG file (with an alpha channel); got ${mask.info.format}.`,
      'mask',
    );
  }
  if (!mask.info.hasAlpha) {
    throw badRequest(
      'invalid_mask',
      '"mask" has no alpha channel: its fully transparent pixels mark where the image is edited.',
      'mask',
    );
  }
  if (mask.info.width !== image.info.width || mask.info.height !== image.info.height) {
    throw badRequest(
      'invalid_mask',
      `"mask" is ${mask.info.width}x${mask.info.height} but "image" is ${image.info.width}x${image.info.height}: they must have the same dimensions.`,
      'mask',
    );
  }
}

function checkFileSize(model: ImageModelSpec, bytes: Buffer, param: string): void {
  const max = model.editMaxBytes;
  if (max === undefined || bytes.length <= max) return;
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
  throw badRequest(
    'image_too_large',
    `"${param}" is ${mb(bytes.length)}; model "${model.id}" takes files up to ${mb(max)}.`,
    param,
  );
}
