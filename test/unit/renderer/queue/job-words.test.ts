import { describe, expect, it } from 'vitest';
import { triesText } from '../../../../renderer/src/screens/queue/job-words.ts';

describe('a job’s requests and tries', () => {
  it('counts every request sent beside the tries since it was queued again', () => {
    expect(triesText({ tries: 1, attempts: 3 })).toBe(
      '3 requests sent; 1 try since it was queued again',
    );
  });
  it('says one count when they agree', () => {
    expect(triesText({ tries: 1, attempts: 1 })).toBe('1 request sent');
    expect(triesText({ tries: 2 })).toBe('2 requests sent');
  });
});
