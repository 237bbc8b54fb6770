import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DOWNLOAD_LIMITS } from '../../../main/core/engine/download-limits.ts';
import { writeVideoPoster, type PosterContext } from '../../../main/core/engine/video-poster.ts';
import { createGatewayClient, type GatewayClient } from '../../../main/core/gateway/client.ts';
import { thumbnailPath } from '../../../main/core/library/thumbnail.ts';
import { createCatalogue } from '../../../shared/gateway/catalogue.ts';
import { captureLogger, type LoggedLine } from '../../support/capture-logger.ts';
import { makeImage } from '../../support/library-fixtures.ts';
import { pollUntil } from '../../support/poll-until.ts';

// Gateways the simulator does not play: one refusing the variant, one ignoring it, one sending
// damaged bytes. Each gets a real HTTP stub on 127.0.0.1; the poster never fails the caller.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let dir: string;
let server: Server;
let client: GatewayClient;
let handler: Handler;
let requests: string[];
let lines: LoggedLine[];
let ctx: PosterContext;
let videoPath: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-poster-'));
  videoPath = join(dir, 'batch', '0001-a-fox.mp4');
  requests = [];
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = createGatewayClient({
    profile: { baseUrl: `http://127.0.0.1:${port}` },
    apiKey: 'sk-test',
    catalogue: createCatalogue(),
  });
  const captured = captureLogger();
  lines = captured.lines;
  ctx = {
    client,
    output: { sidecar: false, manifest: false, thumbnails: true },
    limits: DEFAULT_DOWNLOAD_LIMITS,
    log: captured.logger,
    libraryDir: dir,
  };
});
afterEach(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

const TASK = { videoTaskId: 'video_1' };
const POSTER_URL = '/v1/videos/video_1/content?variant=thumbnail';
const poster = () => thumbnailPath(videoPath);

function answer(status: number, type: string, body: Buffer | string): Handler {
  return (_req, res) => res.writeHead(status, { 'content-type': type }).end(body);
}

describe('writeVideoPoster against gateways of every kind', () => {
  it('makes the WebP thumbnail of the still it is given, at the image thumbnails’ size', async () => {
    handler = answer(200, 'image/png', await makeImage('png', 600, 400));
    expect(await writeVideoPoster(ctx, TASK, videoPath, new AbortController().signal)).toBe(true);
    expect(requests).toEqual([POSTER_URL]);
    expect(await sharp(poster()).metadata()).toMatchObject({
      format: 'webp',
      width: 256,
      height: 171,
    });
    expect(lines).toEqual([]);
  });

  it('a gateway that refuses the variant (400): no poster, one info line, asked once', async () => {
    handler = answer(
      400,
      'application/json',
      JSON.stringify({ error: { type: 'invalid_request_error', code: 'invalid_variant' } }),
    );
    expect(await writeVideoPoster(ctx, TASK, videoPath, new AbortController().signal)).toBe(false);
    expect(requests).toEqual([POSTER_URL]);
    expect(existsSync(poster())).toBe(false);
    expect(lines).toMatchObject([{ level: 'info' }]);
    expect(lines[0]!.message).toContain('the gateway answered 400 invalid_variant');
  });

  it('a gateway that ignores the variant and streams the video again: given up at its first bytes', async () => {
    let closedEarly = false;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.on('close', () => (closedEarly = !res.writableFinished));
      const chunk = Buffer.alloc(64 * 1024);
      chunk.write('\0\0\0\x20ftypisom', 'latin1');
      let sent = 0;
      // 64 MB, more than the poster's cap: it must be cut off, not read to the end
      const more = () => {
        while (sent < 1024 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    expect(await writeVideoPoster(ctx, TASK, videoPath, new AbortController().signal)).toBe(false);
    expect(lines[0]!.message).toContain('not a PNG, JPEG or WebP image');
    await pollUntil(() => closedEarly, 'the stub sees the connection given up');
    expect(existsSync(poster())).toBe(false);
  });

  it('bytes that start like a JPEG but are not one: no poster, and no temp file left', async () => {
    handler = answer(
      200,
      'image/jpeg',
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(300, 7)]),
    );
    expect(await writeVideoPoster(ctx, TASK, videoPath, new AbortController().signal)).toBe(false);
    expect(lines).toMatchObject([{ level: 'info' }]);
    expect(lines[0]!.message).toContain('Could not make a thumbnail');
    expect(existsSync(poster()) ? readdirSync(dirname(poster())) : []).toEqual([]);
  });

  it('stopped while asking: no poster, nothing said', async () => {
    const stop = new AbortController();
    handler = () => stop.abort(); // never answers
    expect(await writeVideoPoster(ctx, TASK, videoPath, stop.signal)).toBe(false);
    expect(lines).toEqual([]);
  });

  it('asks nothing with thumbnails off, or for a job without a task', async () => {
    handler = answer(200, 'image/png', await makeImage('png'));
    const off = { ...ctx, output: { ...ctx.output, thumbnails: false } };
    expect(await writeVideoPoster(off, TASK, videoPath, new AbortController().signal)).toBe(false);
    const noTask = { videoTaskId: null };
    expect(await writeVideoPoster(ctx, noTask, videoPath, new AbortController().signal)).toBe(
      false,
    );
    expect(requests).toEqual([]);
  });
});
