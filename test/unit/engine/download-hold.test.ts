import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DownloadHold } from '../../../main/core/engine/download-hold.ts';

let clock = 0;
const now = () => clock;
/** Moves the hold's clock and the timers together. */
const advance = (ms: number) => {
  clock += ms;
  vi.advanceTimersByTime(ms);
};

beforeEach(() => {
  clock = 1000;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('DownloadHold', () => {
  it('starts a download at once when no request was sent within the hold', () => {
    const hold = new DownloadHold(2, now);
    const started: string[] = [];
    hold.start(() => started.push('a'));
    expect(started).toEqual(['a']);
    hold.requestSent();
    advance(2);
    hold.start(() => started.push('b'));
    expect(started).toEqual(['a', 'b']);
  });

  it('holds downloads started just after a request, then starts them together, in order', () => {
    const hold = new DownloadHold(2, now);
    const started: string[] = [];
    hold.requestSent();
    hold.start(() => started.push('a'));
    advance(1);
    hold.start(() => started.push('b'));
    expect(started).toEqual([]);
    expect(vi.getTimerCount()).toBe(1); // one timer for all of them
    advance(1);
    expect(started).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('release() starts every held download now and disarms the timer', () => {
    const hold = new DownloadHold(50, now);
    const started: string[] = [];
    hold.requestSent();
    hold.start(() => started.push('a'));
    hold.start(() => started.push('b'));
    hold.release();
    expect(started).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
    advance(50);
    expect(started).toEqual(['a', 'b']); // none started twice
  });

  it('a download started during a hold still waits for a request sent after the first', () => {
    const hold = new DownloadHold(2, now);
    const started: string[] = [];
    hold.requestSent();
    hold.start(() => started.push('a'));
    advance(2); // the first hold ends
    expect(started).toEqual(['a']);
    hold.requestSent();
    hold.start(() => started.push('b'));
    expect(started).toEqual(['a']);
    advance(2);
    expect(started).toEqual(['a', 'b']);
  });
});
