import type { GatewayState, Route } from '../context.ts';
import { ApiError, sendFile } from '../http.ts';
import { CONTENT_TYPES } from '../images/render.ts';
import { imageServices } from '../images/services.ts';

/**
 * GET /files/<id>.<ext>: the temporary image links (no key needed, as with a real CDN link).
 * Downloads draw from the 'download' fault scope; sendFile applies url-404/url-500/url-truncate.
 */
export function fileRoutes(state: GatewayState): Route[] {
  const services = imageServices(state);
  const ttlSeconds = Math.round(state.options.urlTtlMs / 1000);
  return [
    {
      method: 'GET',
      pattern: /^\/files\/([0-9a-z]+)\.(png|jpg|webp)$/,
      auth: false,
      faults: 'download',
      handler: async (ctx) => {
        const [id = '', extension = ''] = ctx.params;
        const found = services.links.lookup(id, extension);
        if (found.state === 'expired') {
          throw new ApiError(
            404,
            'invalid_request_error',
            'file_expired',
            `This temporary link has expired (links last ${ttlSeconds} s). Copy generated files at once; generate the image again for a new link.`,
          );
        }
        if (found.state === 'unknown') {
          throw new ApiError(
            404,
            'invalid_request_error',
            'file_not_found',
            'No file at this link. Use links exactly as the image endpoints returned them.',
          );
        }
        const bytes = await services.render(found.spec);
        await sendFile(ctx, bytes, CONTENT_TYPES[found.spec.format]);
      },
    },
  ];
}
