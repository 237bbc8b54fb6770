import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipDimensions, CLIP_FPS, renderClip } from '../../../main/simulator/video/clip.ts';
import { renderFrames } from '../../../main/simulator/video/frames.ts';
import { seedFrom } from '../../../main/simulator/random.ts';
import { launchChromium } from '../../support/browser.ts';
import { summariseMp4 } from './video-boxes.ts';

// The proof that matters: Chromium (as the gallery's lightbox and tiles use it) plays the clip.
const PROMPT = 'a lantern over a harbour';
const SIZE = '1280x720';
const SECONDS = 4;
const { width, height } = clipDimensions(SIZE);

interface VideoState {
  readyState: number;
  width: number;
  height: number;
  duration: number;
  currentTime: number;
  error: string | null;
}

/** What the page's script offers the test (browser code lives in the page: Node has no DOM types). */
interface Player {
  state(): VideoState;
  canPlay(type: string): string;
  play(): Promise<void>;
  /** Seeks, draws the frame on a canvas, and reads the brightest channel and some pixels. */
  sample(
    time: number,
    points: ReadonlyArray<readonly [number, number]>,
  ): Promise<{ brightest: number; pixels: number[][] }>;
}

const PAGE = `<!doctype html>
<video muted playsinline preload="auto" src="/clip.mp4"></video>
<script>
  const video = document.querySelector('video');
  window.player = {
    state: () => ({
      readyState: video.readyState,
      width: video.videoWidth,
      height: video.videoHeight,
      duration: video.duration,
      currentTime: video.currentTime,
      error: video.error && video.error.code + ' ' + video.error.message,
    }),
    canPlay: (type) => video.canPlayType(type),
    play: () => video.play(),
    async sample(time, points) {
      await new Promise((resolve) => {
        video.addEventListener('seeked', resolve, { once: true });
        video.currentTime = time;
      });
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [video.videoWidth, video.videoHeight];
      const context = canvas.getContext('2d', { willReadFrequently: true });
      // 'seeked' may come before the decoded frame is there to draw (a loaded machine): draw
      // again on the next frames, up to about two seconds, until it is not all black
      let brightest = 0;
      for (let frame = 0; frame < 120 && brightest === 0; frame++) {
        if (frame > 0) await new Promise((next) => requestAnimationFrame(next));
        context.drawImage(video, 0, 0);
        const all = context.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < all.length; i += 4) brightest = Math.max(brightest, all[i], all[i + 1], all[i + 2]);
      }
      const pixels = points.map(([x, y]) => [...context.getImageData(x, y, 1, 1).data.slice(0, 3)]);
      return { brightest, pixels };
    },
  };
</script>`;

function player<K extends keyof Player>(
  page: Page,
  method: K,
  ...args: Parameters<Player[K]>
): Promise<Awaited<ReturnType<Player[K]>>> {
  type Result = Awaited<ReturnType<Player[K]>>;
  return page.evaluate(
    ([method, args]) => {
      const { player } = globalThis as unknown as {
        player: Record<string, (...a: unknown[]) => Result>;
      };
      return player[method]!(...args);
    },
    [method, args] as const,
  ) as Promise<Result>;
}

let server: Server;
let origin: string;
let browser: Browser;
/** The RFC 6381 codecs string of the clip, from its avcC: avc1.PPCCLL. */
let codecs: string;

beforeAll(async () => {
  const clip = await renderClip(PROMPT, SIZE, SECONDS);
  const { avcC } = summariseMp4(clip);
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');
  codecs = `avc1.${hex(avcC.profile)}${hex(avcC.compatibility)}${hex(avcC.level)}`;
  server = createServer((request, response) => {
    const isClip = request.url === '/clip.mp4';
    const body = isClip ? clip : Buffer.from(PAGE);
    response.writeHead(200, {
      'content-type': isClip ? 'video/mp4' : 'text/html; charset=utf-8',
      'content-length': body.length,
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function openPlayer(problems: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(`${origin}/`);
  return page;
}

describe('the simulated clip in Chromium', () => {
  it('declares a codec Chromium can play', async () => {
    const page = await openPlayer([]);
    expect(codecs).toMatch(/^avc1\.42C0/); // Constrained Baseline
    expect(await player(page, 'canPlay', `video/mp4; codecs="${codecs}"`)).toBe('probably');
    await page.close();
  });

  it('loads with its size and duration, without an error, and plays', async () => {
    const problems: string[] = [];
    const page = await openPlayer(problems);
    const state = () => player(page, 'state');
    await expect.poll(async () => (await state()).readyState, { timeout: 10_000 }).toBe(4);
    expect(await state()).toMatchObject({ width, height, duration: SECONDS, error: null });
    await player(page, 'play');
    await expect
      .poll(async () => (await state()).currentTime, { timeout: 10_000 })
      .toBeGreaterThan(0.5);
    expect((await state()).error).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the rendered frame: its colours come through a seek to 0.1 s', async () => {
    const problems: string[] = [];
    const page = await openPlayer(problems);
    await expect
      .poll(async () => (await player(page, 'state')).readyState)
      .toBeGreaterThanOrEqual(2);
    const [first] = renderFrames({
      width,
      height,
      count: SECONDS * CLIP_FPS,
      seed: seedFrom('video', PROMPT, SIZE, SECONDS),
      only: 1,
    });
    const radius = Math.round(Math.min(width, height) / 6);
    // The disc starts at the left edge, mid-height; the corners opposite show the gradient.
    const points = [
      [radius, Math.round(height / 2)],
      [width - 4, 4],
      [width - 4, height - 4],
    ] as const;
    const seen = await player(page, 'sample', 0.1, points);
    expect(seen.brightest).toBeGreaterThan(40); // not a black frame
    points.forEach(([x, y], i) => {
      const offset = (y * width + x) * 3;
      const expected = [...first!.subarray(offset, offset + 3)];
      // YUV 4:2:0 rounding and the browser's conversion back: a step or two, not another colour.
      seen.pixels[i]!.forEach((value, c) => expect(Math.abs(value - expected[c]!)).toBeLessThan(6));
    });
    expect(problems).toEqual([]);
    await page.close();
  });
});
