import { describe, expect, it } from 'vitest';
import {
  expectedFormat,
  imageRequestFor,
  metadataFor,
  namingInputFor,
  videoRequestFor,
} from '../../../main/core/engine/job-request.ts';
import { DEFAULT_TEMPLATE, renderRelativePath } from '../../../main/core/library/naming.ts';
import type { Batch } from '../../../main/core/store/rows.ts';
import { jobRow } from '../../support/job-row.ts';

const batch: Batch = {
  id: 1,
  name: 'Spring campaign',
  dirName: 'Spring campaign',
  createdAt: 0,
  settings: {},
  source: 'prompts.csv',
  paused: false,
  pauseReason: null,
  priority: 0,
  jobCount: 120_000,
};

const job = jobRow;

describe('imageRequestFor', () => {
  it('sends only the fields the job has, so the gateway keeps its defaults', () => {
    expect(imageRequestFor(job({ size: null }))).toEqual({
      model: 'flux-schnell',
      prompt: 'A red fox in snow',
      n: 1,
    });
  });

  it('carries size, seed (0 included), the sheet fields and the extra bag', () => {
    const request = imageRequestFor(
      job({
        n: 3,
        seed: 0,
        params: {
          quality: 'hd',
          output_format: 'webp',
          negative_prompt: 'blur',
          response_format: 'b64_json',
          extra: { guidance_scale: 3 },
        },
      }),
    );
    expect(request).toEqual({
      model: 'flux-schnell',
      prompt: 'A red fox in snow',
      n: 3,
      size: '512x512',
      seed: 0,
      quality: 'hd',
      output_format: 'webp',
      negative_prompt: 'blur',
      response_format: 'b64_json',
      extra: { guidance_scale: 3 },
    });
  });

  it('drops empty strings and an empty extra bag; the job beats the engine default', () => {
    expect(
      imageRequestFor(job({ params: { quality: '', extra: {} } }), { responseFormat: 'url' }),
    ).toEqual({
      model: 'flux-schnell',
      prompt: 'A red fox in snow',
      n: 1,
      size: '512x512',
      response_format: 'url',
    });
    const own = imageRequestFor(job({ params: { response_format: 'b64_json' } }), {
      responseFormat: 'url',
    });
    expect(own.response_format).toBe('b64_json');
  });
});

describe('videoRequestFor', () => {
  it('takes model, prompt, size, seconds and extra', () => {
    expect(
      videoRequestFor(
        job({ kind: 'video', model: 'sora-2', size: '720x1280', params: { seconds: '8' } }),
      ),
    ).toEqual({ model: 'sora-2', prompt: 'A red fox in snow', size: '720x1280', seconds: '8' });
  });
});

describe('namingInputFor', () => {
  it('numbers by row, pads to the batch size, and lets a top-up continue the numbering', () => {
    const origin = job({ n: 4, seed: 9 });
    const topUp = job({ id: 43, n: 2, seed: 9, retryOf: 42, imageOffset: 2 });
    const input = namingInputFor(batch, topUp, 3, 'png');
    expect(input).toMatchObject({
      batch: 'Spring campaign',
      index: 7,
      indexWidth: 6,
      image: 3,
      imageCount: 4,
      prompt: 'A red fox in snow',
      seed: 9,
      job: 43,
      ext: 'png',
    });
    const names = [
      renderRelativePath(DEFAULT_TEMPLATE, namingInputFor(batch, origin, 2, 'png')),
      renderRelativePath(DEFAULT_TEMPLATE, input),
    ];
    expect(new Set(names).size).toBe(2);
    expect(names[0]!.startsWith('Spring campaign/000007-')).toBe(true);
  });

  it('uses at least four digits for small batches', () => {
    expect(namingInputFor({ ...batch, jobCount: 12 }, job(), 1, 'png').indexWidth).toBe(4);
  });
});

describe('metadataFor', () => {
  it('embeds the prompt, parameters and request id needed to find or remake the picture', () => {
    const meta = metadataFor(
      batch,
      job({
        seed: 5,
        params: { quality: 'hd', negative_prompt: 'blur', extra: { steps: 4 } },
      }),
      2,
    );
    expect(meta).toEqual({
      prompt: 'A red fox in snow',
      negativePrompt: 'blur',
      model: 'flux-schnell',
      size: '512x512',
      seed: 5,
      index: 1,
      batch: 'Spring campaign',
      requestId: 'req_abc',
      parameters: { quality: 'hd', steps: 4 },
      createdAt: '2026-01-04T00:00:00.000Z',
    });
  });

  it('says "default" for a size left to the gateway', () => {
    expect(metadataFor(batch, job({ size: null, finishedAt: null }), 1)).toMatchObject({
      size: 'default',
      negativePrompt: null,
      createdAt: '2026-01-03T00:00:00.000Z',
    });
  });
});

describe('expectedFormat', () => {
  it.each([
    [{}, 'image', 'png'],
    [{ output_format: 'jpeg' }, 'image', 'jpeg'],
    [{ output_format: 'webp' }, 'image', 'webp'],
    [{ output_format: 'gif' }, 'image', 'png'],
    [{}, 'video', 'mp4'],
  ] as const)('%o (%s) → %s', (params, kind, format) => {
    expect(expectedFormat(job({ params: { ...params }, kind }))).toBe(format);
  });
});
