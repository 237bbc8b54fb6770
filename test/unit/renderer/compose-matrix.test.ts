import { describe, expect, it } from 'vitest';
import {
  parseWholeNumbers,
  planJobs,
  type JobPlan,
} from '../../../renderer/src/screens/compose/matrix.ts';

/** Models with the same lists each. */
const each = (models: string[], lists: { sizes: string[]; seeds: number[]; ns: number[] }) => ({
  models: models.map((model) => ({ model, ...lists })),
});

const all = (plan: JobPlan) => Array.from({ length: plan.count }, (_, i) => plan.at(i));
const ok = (result: ReturnType<typeof planJobs>) => {
  if ('error' in result) throw new Error(result.error);
  return result.plan;
};

describe('the matrix', () => {
  it('multiplies prompts by models × sizes × seeds × n, prompt outermost', () => {
    const plan = ok(
      planJobs(
        ['fox', 'owl'],
        each(['m1', 'm2'], { sizes: ['256x256'], seeds: [1, 2], ns: [] }),
        'multiply',
      ),
    );
    expect(plan.count).toBe(8);
    expect(all(plan).slice(0, 4)).toEqual([
      { prompt: 'fox', model: 'm1', size: '256x256', seed: 1, n: 1 },
      { prompt: 'fox', model: 'm1', size: '256x256', seed: 2, n: 1 },
      { prompt: 'fox', model: 'm2', size: '256x256', seed: 1, n: 1 },
      { prompt: 'fox', model: 'm2', size: '256x256', seed: 2, n: 1 },
    ]);
    expect(plan.at(7).prompt).toBe('owl');
    expect(plan.imagesByModel()).toEqual({ m1: 4, m2: 4 });
  });

  it('leaves size and seed out when none are given, and sums n per model', () => {
    const plan = ok(
      planJobs(['fox'], each(['m'], { sizes: [], seeds: [], ns: [2, 3] }), 'multiply'),
    );
    expect(all(plan)).toEqual([
      { prompt: 'fox', model: 'm', n: 2 },
      { prompt: 'fox', model: 'm', n: 3 },
    ]);
    expect(plan.imagesByModel()).toEqual({ m: 5 });
  });

  it('zips prompt i with item i; a single item goes with every prompt', () => {
    const plan = ok(
      planJobs(
        ['fox', 'owl'],
        each(['m'], { sizes: ['1x1', '2x2'], seeds: [7, 8], ns: [] }),
        'zip',
      ),
    );
    expect(all(plan)).toEqual([
      { prompt: 'fox', model: 'm', size: '1x1', seed: 7, n: 1 },
      { prompt: 'owl', model: 'm', size: '2x2', seed: 8, n: 1 },
    ]);
  });

  it('refuses to zip lists of unequal length, saying which and why', () => {
    const result = planJobs(
      ['a', 'b', 'c'],
      each(['m'], { sizes: [], seeds: [1, 2], ns: [] }),
      'zip',
    );
    expect(result).toEqual({ error: expect.stringContaining('3 prompts but 2 seeds') });
    expect(planJobs(['a'], each([], { sizes: [], seeds: [], ns: [] }), 'multiply')).toEqual({
      error: 'Choose at least one model.',
    });
  });

  it('gives each model its own sizes and n: no combination a model cannot make', () => {
    const plan = ok(
      planJobs(
        ['fox', 'owl'],
        {
          models: [
            {
              model: 'gpt-image-1',
              sizes: ['1024x1024', '1536x1024'],
              seeds: [],
              ns: [2],
              quality: 'high',
            },
            { model: 'dall-e-3', sizes: ['1792x1024'], seeds: [], ns: [], quality: 'hd' },
          ],
        },
        'multiply',
      ),
    );
    expect(plan.count).toBe(6);
    expect(all(plan).slice(0, 3)).toEqual([
      { prompt: 'fox', model: 'gpt-image-1', size: '1024x1024', n: 2, quality: 'high' },
      { prompt: 'fox', model: 'gpt-image-1', size: '1536x1024', n: 2, quality: 'high' },
      { prompt: 'fox', model: 'dall-e-3', size: '1792x1024', n: 1, quality: 'hd' },
    ]);
    expect(plan.at(3)).toMatchObject({ prompt: 'owl', model: 'gpt-image-1' });
    expect(plan.imagesByModel()).toEqual({ 'gpt-image-1': 8, 'dall-e-3': 2 });
    // zipped, a model's own list of the wrong length is named with its model
    expect(
      planJobs(
        ['a', 'b', 'c'],
        {
          models: [
            { model: 'm1', sizes: [], seeds: [], ns: [] },
            { model: 'm2', sizes: ['1x1', '2x2'], seeds: [], ns: [] },
            { model: 'm1', sizes: [], seeds: [], ns: [] },
          ],
        },
        'zip',
      ),
    ).toEqual({ error: expect.stringContaining('3 prompts but 2 sizes for m2') });
  });

  it('reads whole numbers from a typed list, naming the first bad one', () => {
    expect(parseWholeNumbers('1, 2\n3', 'Seeds', 0, 10)).toEqual({ values: [1, 2, 3] });
    expect(parseWholeNumbers('1, x', 'Seeds', 0, 10)).toEqual({
      error: 'Seeds must be whole numbers from 0 to 10; “x” is not.',
    });
  });
});
