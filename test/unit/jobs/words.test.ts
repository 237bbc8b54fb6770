import { describe, expect, it } from 'vitest';
import { ATTEMPT_OUTCOMES, FAILURE_KINDS } from '../../../shared/jobs/outcomes.ts';
import { PAUSE_KINDS } from '../../../shared/jobs/pause.ts';
import {
  attemptOutcomeWords,
  FAILURE_KIND_WORDS,
  PAUSE_KIND_WORDS,
  resultWords,
} from '../../../shared/jobs/words.ts';

describe("the queue's codes in words", () => {
  it('has a sentence for every pause kind, attempt outcome and failure kind, never the code', () => {
    for (const kind of PAUSE_KINDS) expect(PAUSE_KIND_WORDS[kind]).toMatch(/^[A-Z][a-z ]+/);
    for (const outcome of ATTEMPT_OUTCOMES) {
      expect(attemptOutcomeWords(outcome)).toMatch(/^[A-Z][^-]+$/);
    }
    for (const kind of FAILURE_KINDS) expect(FAILURE_KIND_WORDS[kind]).not.toContain('-');
    expect(attemptOutcomeWords(null)).toBe('In flight');
    expect(attemptOutcomeWords('pause-queue')).toBe(
      'Refused for the whole queue: paused it, the job waits',
    );
  });

  it("calls a video job's accepted request a submitted task, not a success", () => {
    expect(attemptOutcomeWords('succeeded', 'video')).toBe('Task submitted');
    expect(attemptOutcomeWords('succeeded')).toBe('Succeeded');
    expect(attemptOutcomeWords('failed', 'video')).toBe('Failed');
  });

  it("names a batch's results by how many of its jobs make videos", () => {
    expect(resultWords(3, 0)).toEqual({ one: 'image', many: 'images' });
    expect(resultWords(2, 2)).toEqual({ one: 'video', many: 'videos' });
    expect(resultWords(3, 1)).toEqual({ one: 'image or video', many: 'images and videos' });
  });
});
