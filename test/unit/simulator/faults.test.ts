import { describe, expect, it } from 'vitest';
import { FaultPicker, parseFaultSpec } from '../../../main/simulator/faults.ts';
import { createRandom } from '../../../main/simulator/random.ts';

describe('parseFaultSpec', () => {
  it('reads probabilities and schedules with their scope', () => {
    expect(parseFaultSpec('429:0.25, 504@3+7,url-404:1')).toEqual([
      { fault: '429', scope: 'work', probability: 0.25, schedule: [] },
      { fault: '504', scope: 'work', probability: 0, schedule: [3, 7] },
      { fault: 'url-404', scope: 'download', probability: 1, schedule: [] },
    ]);
  });

  it('accepts an empty spec', () => {
    expect(parseFaultSpec(undefined)).toEqual([]);
    expect(parseFaultSpec('  ')).toEqual([]);
  });

  it.each([
    ['teapot:0.1', /Unknown fault "teapot".*Known faults: 429/],
    ['429', /not of the form name:probability/],
    ['429:1.5', /probability must be between 0 and 1/],
    ['504@0', /schedule positions are whole numbers from 1/],
  ])('refuses %s with a message that says why', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });
});

describe('FaultPicker', () => {
  it('hits scheduled positions of its own scope only', () => {
    const picker = new FaultPicker(parseFaultSpec('504@2,url-500@1'), createRandom(1));
    expect([picker.pick('work'), picker.pick('work'), picker.pick('work')]).toEqual([
      null,
      '504',
      null,
    ]);
    expect([picker.pick('download'), picker.pick('download')]).toEqual(['url-500', null]);
  });

  it('draws probabilities reproducibly for a seed, near the asked rate', () => {
    const run = (seed: number) => {
      const picker = new FaultPicker(parseFaultSpec('429:0.2'), createRandom(seed));
      return Array.from({ length: 5000 }, () => picker.pick('work'));
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    const rate = first.filter((f) => f === '429').length / first.length;
    expect(rate).toBeGreaterThan(0.17);
    expect(rate).toBeLessThan(0.23);
  });

  it('can be switched on a running picker', () => {
    const picker = new FaultPicker([], createRandom(1));
    expect(picker.pick('work')).toBeNull();
    picker.set(parseFaultSpec('503:1'));
    expect(picker.pick('work')).toBe('503');
  });
});
