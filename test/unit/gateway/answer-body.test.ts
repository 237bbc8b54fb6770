import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import {
  BodyIdle,
  BodyTooLarge,
  collectBody,
  readAll,
} from '../../../main/core/gateway/http/answer-body.ts';

const body = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

describe('readAll', () => {
  it('reads a body whole, into one buffer when its length is announced', async () => {
    expect((await readAll(body('ab', 'cd', 'e'), Infinity, 5)).toString()).toBe('abcde');
    expect((await readAll(body('ab', 'cd'))).toString()).toBe('abcd');
  });

  it('keeps every byte when the announced length was wrong either way', async () => {
    expect((await readAll(body('ab', 'cdef', 'gh'), Infinity, 3)).toString()).toBe('abcdefgh');
    expect((await readAll(body('ab'), Infinity, 10)).toString()).toBe('ab');
  });

  it('stops past maxBytes with BodyTooLarge, the body destroyed', async () => {
    const stream = body('abcd', 'efgh', 'ijkl');
    await expect(readAll(stream, 6)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(stream.destroyed).toBe(true);
    await expect(readAll(body('abcd', 'ef'), 6)).resolves.toHaveLength(6);
  });
});

describe('collectBody', () => {
  const limits = { maxBytes: 6, expectedBytes: null, idleMs: 40 };

  it('says how many bytes had come when it stopped: past maxBytes, or a failure', async () => {
    expect(await collectBody(body('abcd', 'efgh'), limits)).toEqual({
      error: new BodyTooLarge(6),
      received: 8,
    });
    const failing = new PassThrough();
    const read = collectBody(failing, limits);
    failing.write('abc');
    failing.destroy(new Error('reset'));
    expect(await read).toEqual({ error: new Error('reset'), received: 3 });
  });

  it('stops a body that sends nothing for idleMs, destroyed; each chunk gives it idleMs more', async () => {
    vi.useFakeTimers();
    try {
      const stalling = new PassThrough();
      const read = collectBody(stalling, limits);
      // three chunks 25 ms apart: more than idleMs in all, never idleMs without data
      for (const chunk of ['a', 'b', 'c']) {
        stalling.write(chunk);
        await vi.advanceTimersByTimeAsync(25);
      }
      expect(stalling.destroyed).toBe(false);
      await vi.advanceTimersByTimeAsync(15);
      expect(await read).toEqual({ error: new BodyIdle(40), received: 3 });
      expect(stalling.destroyed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    const ending = new PassThrough();
    const whole = collectBody(ending, limits);
    ending.end('abc');
    expect(await whole).toEqual({ bytes: Buffer.from('abc') });
  });
});
