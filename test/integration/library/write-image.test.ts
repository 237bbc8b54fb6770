import { createHash } from 'node:crypto';
import { get as httpGet, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fsp from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryFs } from '../../../main/core/library/library-fs.ts';
import { readEmbeddedMetadataFromFile } from '../../../main/core/library/read-metadata.ts';
import { LibraryWriteError } from '../../../main/core/library/write-error.ts';
import { writeImage, type WriteImageOptions } from '../../../main/core/library/write-image.ts';
import { FIXTURES, makeImage, rawPixels, sampleMetadata } from '../../support/library-fixtures.ts';
import { pollUntil } from '../../support/poll-until.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = (extra: Partial<WriteImageOptions> = {}): WriteImageOptions => ({
  metadata: sampleMetadata(),
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<LibraryWriteError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LibraryWriteError);
  return error as LibraryWriteError;
}

/** Nothing at all in the folder: no temp file, no partial target. */
async function expectEmpty(folder = dir) {
  expect(await readdir(folder)).toEqual([]);
}

describe('writing a decoded (Buffer) image', () => {
  for (const { name, format } of FIXTURES) {
    it(`${name}: lands at the target with metadata, hash and size of the file on disk`, async () => {
      const image = await makeImage(name, 64, 40);
      const target = join(dir, 'batch', `0001-cat-1.${format === 'jpeg' ? 'jpg' : format}`);
      const written = await writeImage(
        image,
        target,
        options({ expectedSize: { width: 64, height: 40 } }),
      );
      const onDisk = await readFile(target);
      expect(written).toEqual({
        path: target,
        bytes: onDisk.length,
        sha256: createHash('sha256').update(onDisk).digest('hex'),
        sourceBytes: image.length,
        width: 64,
        height: 40,
        format,
        alreadyPresent: false,
      });
      expect(onDisk.length).toBeGreaterThan(image.length);
      expect((await readEmbeddedMetadataFromFile(target)).metadata).toEqual({
        ...sampleMetadata(),
        software: 'Atelier',
      });
      expect((await rawPixels(target)).data.equals((await rawPixels(image)).data)).toBe(true);
      expect(await readdir(join(dir, 'batch'))).toEqual([
        `0001-cat-1.${format === 'jpeg' ? 'jpg' : format}`,
      ]);
    });
  }

  it('refuses an image of another format than the extension says, leaving nothing', async () => {
    const error = await failure(writeImage(await makeImage('jpeg'), join(dir, 'a.png'), options()));
    expect(error.kind).toBe('wrong-format');
    expect(error.detectedFormat).toBe('jpeg');
    await expectEmpty();
  });

  it('refuses a PNG whose header claims no pixels', async () => {
    const png = Buffer.from(await makeImage('png'));
    png.writeUInt32BE(0, 16); // IHDR width
    const error = await failure(writeImage(png, join(dir, 'a.png'), options()));
    expect(error.kind).toBe('corrupt');
    await expectEmpty();
  });

  it('refuses an image of another size than requested', async () => {
    const target = join(dir, 'a.png');
    const error = await failure(
      writeImage(
        await makeImage('png'),
        target,
        options({ expectedSize: { width: 1024, height: 1024 } }),
      ),
    );
    expect(error.kind).toBe('wrong-size');
    expect(error.message).toContain('48x32, not the 1024x1024');
    await expectEmpty();
  });

  it('with decodePixels, catches damage inside the image data that the header check cannot', async () => {
    const png = Buffer.from(await makeImage('png', 200, 200));
    const idat = png.indexOf('IDAT', 0, 'latin1');
    for (let i = idat + 40; i < idat + 400; i += 1) png[i] = 0; // keep length, break the data
    const target = join(dir, 'a.png');
    const error = await failure(writeImage(png, target, options({ decodePixels: true })));
    expect(error.kind).toBe('corrupt');
    await expectEmpty();
    // The default check reads headers and structure only: the same bytes pass it.
    await expect(writeImage(png, target, options())).resolves.toMatchObject({ width: 200 });
  });

  it('never overwrites a different file; an identical one counts as already written', async () => {
    const target = join(dir, 'a.png');
    await writeFile(target, 'precious');
    const error = await failure(writeImage(await makeImage('png'), target, options()));
    expect(error.kind).toBe('target-exists');
    expect(await readFile(target, 'utf8')).toBe('precious');
    expect(await readdir(dir)).toEqual(['a.png']);

    const other = join(dir, 'b.png');
    const first = await writeImage(await makeImage('png'), other, options());
    const again = await writeImage(await makeImage('png'), other, options());
    expect(again).toEqual({ ...first, alreadyPresent: true });
    expect((await readdir(dir)).sort()).toEqual(['a.png', 'b.png']);
  });

  it('writes many images into one folder at once without a temp file left', async () => {
    const image = await makeImage('webp-lossy');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writeImage(
          image,
          join(dir, `${i}.webp`),
          options({ metadata: sampleMetadata({ index: i }) }),
        ),
      ),
    );
    expect(new Set(results.map((r) => r.sha256)).size).toBe(20); // the index differs in each
    expect((await readdir(dir)).length).toBe(20);
    expect((await readdir(dir)).every((name) => /^\d+\.webp$/.test(name))).toBe(true);
  });
});

describe('disk failures', () => {
  it('a folder path that is a file: unwritable, nothing created', async () => {
    await writeFile(join(dir, 'batch'), 'not a folder');
    const error = await failure(
      writeImage(await makeImage('png'), join(dir, 'batch', 'x', 'a.png'), options()),
    );
    expect(error.kind).toBe('unwritable');
    expect(error.message).toMatch(/ENOTDIR.*Move that file away/);
    expect(await readdir(dir)).toEqual(['batch']);
  });

  it('a full disk in the middle of the write: disk-full, and the temp file is removed', async () => {
    let tempSeen = '';
    const fullDisk: LibraryFs = {
      ...fsp,
      open: (async (path: string, flags?: string) => {
        const handle = await fsp.open(path, flags);
        if (flags === 'wx') {
          tempSeen = path;
          let written = 0;
          const write = handle.write.bind(handle) as (
            b: Uint8Array,
            o: number,
            l: number,
          ) => Promise<{ bytesWritten: number }>;
          Object.assign(handle, {
            write: async (buffer: Uint8Array, offset: number, length: number) => {
              if (written > 100)
                throw Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' });
              const result = await write(buffer, offset, Math.min(length, 64));
              written += result.bytesWritten;
              return result;
            },
          });
        }
        return handle;
      }) as LibraryFs['open'],
    };
    const error = await failure(
      writeImage(await makeImage('png', 64, 64), join(dir, 'a.png'), options({ fs: fullDisk })),
    );
    expect(error.kind).toBe('disk-full');
    expect(error.message).toContain('Free some space');
    expect(tempSeen).toMatch(/\.atelier-[0-9a-f]{20}\.tmp$/);
    await expectEmpty();
  });

  it('a full disk at fsync: disk-full as well', async () => {
    const failingSync: LibraryFs = {
      ...fsp,
      open: (async (path: string, flags?: string) => {
        const handle = await fsp.open(path, flags);
        if (flags === 'wx') {
          Object.assign(handle, {
            sync: async () => {
              throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
            },
          });
        }
        return handle;
      }) as LibraryFs['open'],
    };
    const error = await failure(
      writeImage(await makeImage('jpeg'), join(dir, 'a.jpg'), options({ fs: failingSync })),
    );
    expect(error.kind).toBe('disk-full');
    await expectEmpty();
  });
});

describe('streaming a download', () => {
  let server: Server;
  let base: string;
  let png: Buffer;
  const stalled = new Set<() => void>();

  beforeAll(async () => {
    png = await makeImage('png', 256, 256);
    server = createServer((request, response) => {
      const route = request.url ?? '';
      const half = png.subarray(0, png.length >> 1);
      if (route === '/slow') {
        // Many small chunks over time: proves the writer consumes a real stream.
        response.writeHead(200, { 'content-length': png.length, 'content-type': 'image/png' });
        let offset = 0;
        const timer = setInterval(() => {
          response.write(png.subarray(offset, offset + 4096));
          offset += 4096;
          if (offset >= png.length) {
            clearInterval(timer);
            response.end();
          }
        }, 2);
      } else if (route === '/cut') {
        response.writeHead(200, { 'content-length': png.length });
        response.write(half, () => setTimeout(() => response.socket?.destroy(), 20));
      } else if (route === '/short-chunked') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(half); // a clean end, but the image is not complete
      } else if (route === '/stall') {
        response.writeHead(200, { 'content-length': png.length });
        response.write(half);
        stalled.add(() => response.destroy());
      } else if (route === '/error-page') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end('<html>upstream timed out</html>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const end of stalled) end();
    await new Promise((resolve) => server.close(resolve));
  });

  async function download(
    route: string,
    extra: Partial<WriteImageOptions> = {},
    signal?: AbortSignal,
  ) {
    const response = await fetch(base + route, { signal });
    const length = response.headers.get('content-length');
    return writeImage(
      response.body!,
      join(dir, 'a.png'),
      options({
        ...(length ? { expectedBytes: Number(length) } : {}),
        ...(signal ? { signal } : {}),
        ...extra,
      }),
    );
  }

  it('writes a body that arrives in many small chunks', async () => {
    const written = await download('/slow');
    expect(written).toMatchObject({ sourceBytes: png.length, width: 256, height: 256 });
    expect((await rawPixels(join(dir, 'a.png'))).data.equals((await rawPixels(png)).data)).toBe(
      true,
    );
    expect(await readdir(dir)).toEqual(['a.png']);
  });

  it('accepts a Node Readable (http.IncomingMessage) as well', async () => {
    const message = await new Promise<IncomingMessage>((resolve) =>
      httpGet(`${base}/slow`, resolve),
    );
    const written = await writeImage(message, join(dir, 'a.png'), options());
    expect(written.sourceBytes).toBe(png.length);
  });

  it('a connection cut mid-body fails as network, leaving nothing', async () => {
    const error = await failure(download('/cut'));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/failed after \d+ bytes/);
    await expectEmpty();
  });

  it('a body that ends cleanly but early fails as truncated, leaving nothing', async () => {
    const error = await failure(download('/short-chunked'));
    expect(error.kind).toBe('truncated');
    await expectEmpty();
  });

  it('an error page served as an image fails as wrong-format', async () => {
    const error = await failure(download('/error-page'));
    expect(error.kind).toBe('wrong-format');
    expect(error.message).toContain('<html>');
    await expectEmpty();
  });

  it('an abort mid-stream fails as aborted, leaving nothing', async () => {
    const controller = new AbortController();
    const pending = download('/stall', {}, controller.signal);
    await pollUntil(async () => (await readdir(dir)).length > 0, 'the body is arriving');
    const temps = await readdir(dir);
    expect(temps).toHaveLength(1); // the temp file, while the body is arriving
    expect(temps[0]).toMatch(/^\.atelier-/);
    controller.abort(new Error('user paused the batch'));
    const error = await failure(pending);
    expect(error.kind).toBe('aborted');
    await expectEmpty();
  });

  it('an abort ends the write even when the source itself ignores the signal', async () => {
    const source = new PassThrough();
    source.write(png.subarray(0, 1000)); // then nothing more, ever
    const controller = new AbortController();
    const pending = writeImage(source, join(dir, 'a.png'), options({ signal: controller.signal }));
    await pollUntil(async () => (await readdir(dir)).length > 0, 'the write has begun');
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe('aborted');
    expect(source.destroyed).toBe(true);
    await expectEmpty();
  });

  it('an already aborted signal writes nothing', async () => {
    const error = await failure(
      writeImage(png, join(dir, 'a.png'), options({ signal: AbortSignal.abort() })),
    );
    expect(error.kind).toBe('aborted');
    await expectEmpty();
  });

  it('is still decodable by sharp after streaming (metadata present to other readers)', async () => {
    await download('/slow');
    const info = await sharp(join(dir, 'a.png')).metadata();
    expect(info.xmp?.toString()).toContain('atelier:metadata');
  });
});
