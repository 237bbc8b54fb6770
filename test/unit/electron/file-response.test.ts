import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileResponse, parseRange } from '../../../main/electron/file-response.ts';

describe('parseRange', () => {
  it.each([
    // header, size, answer
    [null, 100, null],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }], // a <video> seeking
    ['bytes=90-500', 100, { start: 90, end: 99 }], // clamped to the file
    ['bytes=-10', 100, { start: 90, end: 99 }], // the last 10 bytes
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['BYTES = 5 - 5', 100, { start: 5, end: 5 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=100-200', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=-5', 0, 'unsatisfiable'],
    ['bytes=9-3', 100, null], // reversed: ignored, the whole file
    ['bytes=0-1,5-9', 100, null], // several ranges: the whole file
    ['items=0-9', 100, null],
    ['bytes=-', 100, null],
    ['bytes=a-9', 100, null],
  ] as const)('%s of %i bytes: %o', (header, size, answer) => {
    expect(parseRange(header, size)).toEqual(answer);
  });
});

describe('fileResponse', () => {
  let dir: string;
  let video: string;
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-file-response-'));
    video = join(dir, 'clip.mp4');
    writeFileSync(video, bytes);
    writeFileSync(join(dir, 'empty.png'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const get = (path: string, range?: string) =>
    fileResponse(path, new Request('atelier://media/x', range ? { headers: { range } } : {}), {
      'Cache-Control': 'no-cache',
    });

  it('serves the whole file with its type, its length and ranges offered', async () => {
    const response = await get(video);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': '1000',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
  });

  it('answers a range with 206, its Content-Range and exactly its bytes', async () => {
    const response = await get(video, 'bytes=600-');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 600-999/1000');
    expect(response.headers.get('content-length')).toBe('400');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes.subarray(600));
    const middle = await get(video, 'bytes=10-19');
    expect(middle.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(bytes.subarray(10, 20));
  });

  it('answers 416 with the size for a range past the end', async () => {
    const response = await get(video, 'bytes=1000-');
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */1000');
    expect(await response.text()).toBe('');
  });

  it('serves an empty file', async () => {
    const response = await get(join(dir, 'empty.png'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(await response.text()).toBe('');
  });

  it('rejects for a file that is gone (the protocol answers 500)', async () => {
    await expect(get(join(dir, 'missing.mp4'))).rejects.toThrow(/ENOENT/);
  });
});
