import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | null = null;

/**
 * sharp (libvips) on first use: loading it costs about 20 MB of memory and start-up time,
 * and the engine's usual path (write, check the header, fsync) never needs it — only
 * thumbnails, full decoding and adopting a file left by a crash do.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
