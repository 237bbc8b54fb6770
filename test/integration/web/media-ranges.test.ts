import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost } from './harness.ts';

// A video seeks in the browser by byte ranges: the media route says it takes them, and answers
// each form a player sends (bounded, open-ended, suffix), and one it cannot satisfy.

let root: string;
const BYTES = '0123456789';

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-web-ranges-'));
  await writeFile(join(root, 'clip.mp4'), BYTES);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('web host: byte ranges of media', () => {
  it('a whole answer says it takes ranges; each kind of range gets its bytes with 206', async () => {
    const t = await startTestHost({ libraryDir: root });
    const whole = await t.get('/media/clip.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-length']).toBe('10');
    const cases: Array<[string, string, string]> = [
      ['bytes=2-5', 'bytes 2-5/10', '2345'],
      ['bytes=7-', 'bytes 7-9/10', '789'],
      ['bytes=-3', 'bytes 7-9/10', '789'],
      ['bytes=8-100', 'bytes 8-9/10', '89'],
      ['bytes=0-0', 'bytes 0-0/10', '0'],
    ];
    for (const [range, contentRange, body] of cases) {
      const part = await t.get('/media/clip.mp4', { range });
      expect(part.status, range).toBe(206);
      expect(part.headers['content-range'], range).toBe(contentRange);
      expect(part.headers['content-length'], range).toBe(String(body.length));
      expect(part.headers['content-type'], range).toBe('video/mp4');
      expect(part.text, range).toBe(body);
    }
  });

  it('a range past the end is 416 with the size, and no bytes', async () => {
    const t = await startTestHost({ libraryDir: root });
    const beyond = await t.get('/media/clip.mp4', { range: 'bytes=20-30' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */10');
    expect(beyond.text).toBe('');
  });
});
