import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { getMimeType } from 'hono/utils/mime';

/** Bytes `start` to `end` of a file, both included (as `Content-Range` writes them). */
export interface ByteRange {
  start: number;
  end: number;
}

const SINGLE_RANGE = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110, 14.1.2): one range, clamped
 * to the file; `unsatisfiable` (416) when it starts past the end; null for the whole file when
 * there is no header, or one this server may ignore (another unit, several ranges, a malformed
 * or reversed one). A `<video>` asks `bytes=N-` to seek: without an answer, it cannot.
 */
export function parseRange(
  header: string | null,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  const match = header === null ? null : SINGLE_RANGE.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '') {
    if (last === '') return null;
    // a suffix: the last N bytes
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * A file as a streamed response: its type by extension, `nosniff`, and byte ranges (206 with
 * `Content-Range`, or 416), so videos seek. Electron's `net.fetch` of a `file:` URL ignores
 * `Range` and answers 200 with the whole file, hence this. One descriptor from open to the last
 * byte. `path` must already be checked (inside the library or the renderer).
 */
export async function fileResponse(
  path: string,
  request: Request,
  extra: Record<string, string> = {},
): Promise<Response> {
  const file = await open(path, 'r');
  let streaming = false;
  try {
    const { size } = await file.stat();
    const headers = new Headers({
      'Content-Type': getMimeType(path) ?? 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    });
    const range = parseRange(request.headers.get('range'), size);
    if (range === 'unsatisfiable') {
      headers.set('Content-Range', `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    headers.set('Content-Length', String(end - start + 1));
    if (range) headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
    if (size === 0) return new Response(null, { status: 200, headers });
    const body = Readable.toWeb(file.createReadStream({ start, end })) as ReadableStream;
    streaming = true; // the stream closes the file when it ends or is canceled
    return new Response(body, { status: range ? 206 : 200, headers });
  } finally {
    if (!streaming) await file.close();
  }
}
