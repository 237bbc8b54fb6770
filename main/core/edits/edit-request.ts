import type { EditRequest, ImageRequest } from '../../../shared/gateway/requests.ts';
import type { JobEdit } from '../store/edit-repository.ts';
import type { EditInputFiles } from './input-files.ts';

/**
 * The gateway request of an edit job: its fields as a generation's, with the picture and mask
 * read back from the data folder (checked against their sha256: what was checked is sent).
 * Throws EditInputError when one is missing or changed.
 */
export async function editRequestFor(
  inputs: EditInputFiles,
  request: ImageRequest,
  edit: JobEdit,
): Promise<EditRequest> {
  const [image, mask] = await Promise.all([
    inputs.read(edit.imageSha256),
    edit.maskSha256 === null ? null : inputs.read(edit.maskSha256),
  ]);
  const { image_urls: _urls, webhook: _webhook, ...fields } = request;
  return {
    ...fields,
    image: { bytes: image, filename: 'image.png', mimeType: 'image/png' },
    ...(mask ? { mask: { bytes: mask, filename: 'mask.png', mimeType: 'image/png' } } : {}),
  };
}
