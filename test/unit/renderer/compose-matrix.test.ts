import { describe, expect, it } from 'vitest';
import {
  parseWholeNumbers,
  planJobs,
  type JobPlan,
} from '../../../renderer/src/screens/compose/matrix.ts';

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
        { models: ['m1', 'm2'], sizes: ['256x256'], seeds: [1, 2], ns: [] },
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
      planJobs(['fox'], { models: ['m'], sizes: [], seeds: [], ns: [2, 3] }, 'multiply'),
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
        { models: ['m'], sizes: ['1x1', '2x2'], seeds: [7, 8], ns: [] },
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
      { models: ['m'], sizes: [], seeds: [1, 2], ns: [] },
      'zip',
    );
    expect(result).toEqual({ error: expect.stringContaining('3 prompts but 2 seeds') });
    expect(planJobs(['a'], { models: [], sizes: [], seeds: [], ns: [] }, 'multiply')).toEqual({
      error: 'Choose at least one model.',
    });
  });

  it('reads whole numbers from a typed list, naming the first bad one', () => {
    expect(parseWholeNumbers('1, 2\n3', 'Seeds', 0, 10)).toEqual({ values: [1, 2, 3] });
    expect(parseWholeNumbers('1, x', 'Seeds', 0, 10)).toEqual({
      error: 'Seeds must be whole numbers from 0 to 10; “x” is not.',
    });
  });
});
