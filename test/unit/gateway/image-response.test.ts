import { describe, expect, it } from 'vitest';
import { readImageResponse } from '../../../main/core/gateway/read/image-response.ts';

const options = { partialKey: 'svc_partial' };

describe('readImageResponse (interface 2.5)', () => {
  it('reads url, b64_json and both, with revised_prompt and created', () => {
    const reading = readImageResponse(
      {
        created: 1700000000,
        data: [
          { url: 'http://x/1.png' },
          { b64_json: 'AAAA', revised_prompt: 'better' },
          { url: 'http://x/3.png', b64_json: 'BBBB' },
        ],
      },
      options,
    );
    expect(reading).toEqual({
      ok: true,
      result: {
        created: 1700000000,
        partial: null,
        images: [
          { index: 0, url: 'http://x/1.png', b64Json: null, revisedPrompt: null, seed: null },
          { index: 1, url: null, b64Json: 'AAAA', revisedPrompt: 'better', seed: null },
          { index: 2, url: 'http://x/3.png', b64Json: 'BBBB', revisedPrompt: null, seed: null },
        ],
      },
    });
  });

  it('reads the seed the gateway says it used, per image or for the whole answer', () => {
    const reading = readImageResponse(
      {
        seed: '42',
        data: [
          { url: 'http://x/1.png', seed: 7 },
          { url: 'http://x/2.png' },
          { url: 'http://x/3.png', seed: -1 },
          { url: 'http://x/4.png', seed: 'soon' },
        ],
      },
      options,
    );
    expect(reading.ok && reading.result.images.map((image) => image.seed)).toEqual([7, 42, 42, 42]);
    const none = readImageResponse({ data: [{ url: 'http://x/1.png', seed: 2 ** 33 }] }, options);
    expect(none.ok && none.result.images[0]!.seed).toBeNull();
  });

  it.each([
    ['empty data', { created: 1, data: [] }],
    ['items with neither url nor b64_json', { data: [{ revised_prompt: 'x' }, { url: '' }] }],
  ])('treats %s as a failed generation', (_, body) => {
    expect(readImageResponse(body, options)).toEqual({ ok: false, problem: 'empty' });
  });

  it.each([
    ['no data', { created: 1 }],
    ['data not a list', { data: 'x' }],
    ['not an object', 'hello'],
  ])('calls %s malformed', (_, body) => {
    expect(readImageResponse(body, options)).toMatchObject({ ok: false, problem: 'malformed' });
  });

  const images = [{ url: 'http://x/1.png' }, { url: 'http://x/2.png' }];
  const counts = { requested_n: 4, returned_n: 2, failed_requests: 2 };
  it.each([
    ['counts inside metadata', { metadata: { svc_partial: true, ...counts } }],
    ['counts beside data', { metadata: { svc_partial: true }, ...counts }],
    ['counts nested under the partial key', { metadata: { svc_partial: counts } }],
    ['partial key at the top level', { svc_partial: counts }],
    ['counts only, no flag', { metadata: counts }],
  ])('finds partial success with %s', (_, extra) => {
    const reading = readImageResponse({ data: images, ...extra }, options);
    expect(reading.ok && reading.result.partial).toMatchObject({
      requestedN: 4,
      returnedN: 2,
      failedRequests: 2,
    });
  });

  it('uses the profile partial key', () => {
    const reading = readImageResponse(
      { data: images, metadata: { acme_partial: counts } },
      { partialKey: 'acme_partial' },
    );
    expect(reading.ok && reading.result.partial?.requestedN).toBe(4);
  });

  it('counts a list of failed requests', () => {
    const reading = readImageResponse(
      { data: images, metadata: { svc_partial: true, requested_n: 3, failed_requests: [{}] } },
      options,
    );
    expect(reading.ok && reading.result.partial).toMatchObject({
      requestedN: 3,
      returnedN: 2,
      failedRequests: 1,
    });
  });

  it('notices fewer images than asked even without metadata', () => {
    const reading = readImageResponse({ data: images }, { ...options, requestedN: 3 });
    expect(reading.ok && reading.result.partial).toMatchObject({
      requestedN: 3,
      returnedN: 2,
      failedRequests: 1,
    });
  });

  it('is not partial when everything came back', () => {
    const reading = readImageResponse({ data: images }, { ...options, requestedN: 2 });
    expect(reading.ok && reading.result.partial).toBeNull();
  });
});
