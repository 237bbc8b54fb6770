import { afterEach, describe, expect, it } from 'vitest';
import { localDate, localDayCounter, runsOf } from '../../../main/core/store/gallery-runs.ts';

const DAY = 86_400_000;
const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('runsOf', () => {
  it('counts consecutive equal keys, keeping where each run starts', () => {
    expect(runsOf([1, 1, 2, 1, 1, 1], (v) => v)).toEqual([
      { key: 1, first: 1, count: 2 },
      { key: 2, first: 2, count: 1 },
      { key: 1, first: 1, count: 3 },
    ]);
    expect(runsOf([], (v) => v)).toEqual([]);
    expect(runsOf([10, 19, 21], (v) => Math.floor(v / 10))).toEqual([
      { key: 1, first: 10, count: 2 },
      { key: 2, first: 21, count: 1 },
    ]);
  });
});

describe('localDayCounter', () => {
  // daylight saving both ways, a half-hour shift (Lord Howe), a quarter-hour offset (Kathmandu)
  for (const tz of ['America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC']) {
    it(`agrees with the local date every 7 minutes through two years in ${tz}`, () => {
      process.env.TZ = tz;
      const dayOf = localDayCounter();
      const start = Date.UTC(2025, 0, 1);
      if (tz === 'America/New_York') expect(new Date(start).getTimezoneOffset()).toBe(300);
      for (let t = start; t < start + 730 * DAY; t += 7 * 60_000) {
        // day number d is the local date whose UTC midnight is d days after the epoch
        expect(new Date(dayOf(t) * DAY).toISOString().slice(0, 10)).toBe(localDate(t));
      }
    });
  }
});
