import { describe, expect, it } from 'vitest';
import {
  localDay,
  presetOf,
  presetRange,
} from '../../../../renderer/src/screens/gallery/day-range.ts';

// a local noon, so that no time zone moves the day
const today = new Date(2026, 2, 3, 12);

describe('the gallery days filter', () => {
  it('counts a preset back from today, today included, across a month', () => {
    expect(presetRange('today', today)).toEqual({ from: '2026-03-03', to: null });
    expect(presetRange('week', today)).toEqual({ from: '2026-02-25', to: null });
    expect(presetRange('month', today)).toEqual({ from: '2026-02-02', to: null });
    expect(presetRange('any', today)).toEqual({ from: null, to: null });
  });

  it('names the preset a view holds, and any other days custom', () => {
    expect(presetOf({ from: null, to: null }, today)).toBe('any');
    expect(presetOf({ from: '2026-02-25', to: null }, today)).toBe('week');
    expect(presetOf({ from: '2026-03-03', to: null }, today)).toBe('today');
    // a preset chosen yesterday is a range of days now
    expect(presetOf({ from: '2026-02-24', to: null }, today)).toBe('custom');
    expect(presetOf({ from: '2026-03-03', to: '2026-03-03' }, today)).toBe('custom');
    expect(presetOf({ from: null, to: '2026-03-01' }, today)).toBe('custom');
  });

  it('writes a local day as the date inputs do', () => {
    expect(localDay(new Date(2026, 0, 9, 23, 59))).toBe('2026-01-09');
  });
});
