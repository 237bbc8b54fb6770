import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInModels, type ImageModelEntry } from '../../../shared/gateway/catalogue.ts';
import { planJobs } from '../../../renderer/src/screens/compose/matrix.ts';
import { modelParams } from '../../../renderer/src/screens/compose/model-params.ts';
import { rowOf, sourceOf } from '../../../renderer/src/screens/compose/source.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-rules-'));
  opened = await openTestService(dir);
});
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (id: string) => builtInModels().find((e) => e.id === id) as ImageModelEntry;

describe('the parameter rules', () => {
  it('say the same sentence in Compose as the service’s check', async () => {
    const cases = [
      { model: 'dall-e-3', size: '4096x4096' },
      { model: 'dall-e-3', size: '512×512' },
      { model: 'dall-e-3', n: 2 },
      { model: 'flux-schnell', size: '4096x4096' },
      { model: 'gpt-image-1', quality: 'ultra' },
    ];
    for (const { model, size, n, quality } of cases) {
      // set in the model's own group, as a person types them
      const compose = modelParams(
        [entry(model)],
        { sizes: [], seeds: [], ns: [], quality: '', outputFormat: '' },
        {
          [model]: {
            ...(size ? { sizes: size } : {}),
            ...(n ? { ns: String(n) } : {}),
            ...(quality ? { quality } : {}),
          },
        },
      ).problems;
      const check = await opened.api.batches.check({
        source: {
          kind: 'rows',
          rows: [
            {
              prompt: 'a fox',
              model,
              ...(size ? { size } : {}),
              ...(n ? { n } : {}),
              ...(quality ? { quality } : {}),
            },
          ],
        },
      });
      expect(compose).toHaveLength(1);
      expect(check.errors[0]?.message).toContain(compose[0]);
    }
  });

  it('sends each model of a matrix only what it takes, and the service takes every row', async () => {
    // gpt-image-1 and dall-e-3 share two sizes, quality hd and n 2: each gets its part
    const models = [entry('gpt-image-1'), entry('dall-e-3')];
    const planned = modelParams(
      models,
      { sizes: ['1024x1024', '1536x1024'], seeds: [], ns: [2], quality: 'hd', outputFormat: '' },
      { 'gpt-image-1': { quality: 'high' } },
    );
    expect(planned.problems).toEqual([]);
    const result = planJobs(['a fox', 'an owl'], { models: planned.models }, 'multiply');
    if ('error' in result) throw new Error(result.error);
    const lookup = (id: string) => models.find((m) => m.id === id)!;
    const source = sourceOf(result.plan, (job) => rowOf(job, {}, lookup));
    if (source.kind !== 'rows') throw new Error('rows expected');
    expect(source.rows.slice(0, 3)).toEqual([
      { prompt: 'a fox', model: 'gpt-image-1', size: '1024x1024', n: 2, quality: 'high' },
      { prompt: 'a fox', model: 'gpt-image-1', size: '1536x1024', n: 2, quality: 'high' },
      { prompt: 'a fox', model: 'dall-e-3', size: '1024x1024', n: 1, quality: 'hd' },
    ]);
    const check = await opened.api.batches.check({ source });
    expect(check.errors).toEqual([]);
    expect(check.jobs).toBe(6);
  });
});
