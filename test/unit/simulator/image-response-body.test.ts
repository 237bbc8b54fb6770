import { describe, expect, it } from 'vitest';
import {
  imageResponseBody,
  partialCount,
  revisePrompt,
} from '../../../main/simulator/images/response-body.ts';

const base = {
  data: [{ url: 'u' }],
  upstreamRequestId: 'up_1',
  partialKey: 'svc_partial',
  now: 1_700_000_000_500,
};

describe('imageResponseBody', () => {
  it('carries created in seconds, data and upstream_request_id; no metadata when complete', () => {
    expect(imageResponseBody({ ...base, partial: null, placement: 'metadata' })).toEqual({
      created: 1_700_000_000,
      data: [{ url: 'u' }],
      upstream_request_id: 'up_1',
    });
  });

  it.each([
    [
      'metadata',
      { metadata: { svc_partial: true, requested_n: 4, returned_n: 1, failed_requests: 3 } },
    ],
    [
      'top-level',
      { metadata: { svc_partial: true }, requested_n: 4, returned_n: 1, failed_requests: 3 },
    ],
    [
      'nested',
      { metadata: { svc_partial: { requested_n: 4, returned_n: 1, failed_requests: 3 } } },
    ],
  ] as const)('places partial counts: %s', (placement, expected) => {
    const body = imageResponseBody({ ...base, partial: { requested: 4, returned: 1 }, placement });
    expect(body).toMatchObject(expected);
  });

  it('uses the configured partial key', () => {
    const body = imageResponseBody({
      ...base,
      partialKey: 'gw_partial',
      partial: { requested: 2, returned: 1 },
      placement: 'metadata',
    });
    expect(body.metadata).toHaveProperty('gw_partial', true);
  });
});

describe('partialCount', () => {
  it.each([
    [2, 1],
    [3, 1],
    [4, 2],
    [10, 5],
  ])('n=%i returns %i (at least one, fewer than asked)', (n, returned) => {
    expect(partialCount(n)).toBe(returned);
  });
});

describe('revisePrompt', () => {
  it('is a deterministic rewrite that keeps the prompt', () => {
    expect(revisePrompt('a cat.', 7)).toBe(revisePrompt('a cat.', 7));
    expect(revisePrompt('a cat.', 7)).toMatch(/^a cat, shown in .+\.$/);
  });
});
