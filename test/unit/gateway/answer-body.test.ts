import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyTooLarge, readAll } from '../../../main/core/gateway/http/answer-body.ts';

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
