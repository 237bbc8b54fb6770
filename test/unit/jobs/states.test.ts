import { describe, expect, it } from 'vitest';
import {
  JOB_STATES,
  IllegalTransitionError,
  allTransitions,
  assertTransition,
  canTransition,
  isFinal,
  isJobState,
  statesLeadingTo,
  type JobState,
} from '../../../shared/jobs/states.ts';
import { canDownloadTransition, assertDownloadTransition } from '../../../shared/jobs/downloads.ts';
import { needsRetryAnyway } from '../../../shared/jobs/outcomes.ts';

// The whole matrix, written out independently of the table: any edge added or removed
// there must be argued for here too.
const LEGAL = new Set([
  'queued→running',
  'queued→canceled',
  'running→succeeded',
  'running→failed',
  'running→retrying',
  'running→canceled',
  'running→queued',
  'retrying→running',
  'retrying→canceled',
  'failed→queued',
  'canceled→queued',
]);

describe('job transition table', () => {
  it('has exactly the six client states, none of the platform task states', () => {
    expect([...JOB_STATES]).toEqual([
      'queued',
      'running',
      'retrying',
      'succeeded',
      'failed',
      'canceled',
    ]);
    for (const platform of ['SUCCESS', 'FAILURE', 'IN_PROGRESS', 'paused']) {
      expect(isJobState(platform)).toBe(false);
    }
  });

  const pairs = JOB_STATES.flatMap((from) => JOB_STATES.map((to) => [from, to] as const));
  it.each(pairs)('%s → %s', (from, to) => {
    const legal = LEGAL.has(`${from}→${to}`);
    expect(canTransition(from, to)).toBe(legal);
    if (legal) expect(() => assertTransition(from, to)).not.toThrow();
    else expect(() => assertTransition(from, to)).toThrow(IllegalTransitionError);
  });

  it('lists every legal pair once', () => {
    expect(
      allTransitions()
        .map(({ from, to }) => `${from}→${to}`)
        .sort(),
    ).toEqual([...LEGAL].sort());
  });

  it('names both states and the way out in the error', () => {
    expect(() => assertTransition('succeeded', 'running', 'job 7')).toThrow(
      'job 7: a job cannot go from "succeeded" to "running". "succeeded" is final: create a new job instead.',
    );
    expect(() => assertTransition('queued', 'succeeded')).toThrow(
      'from "queued" to "succeeded". From "queued" it may only go to: running, canceled.',
    );
  });

  it('never lets a job skip running to reach an outcome', () => {
    for (const outcome of ['succeeded', 'failed', 'retrying'] as JobState[]) {
      expect(statesLeadingTo(outcome)).toEqual(['running']);
    }
  });

  it('only succeeded is final; a crash can always be recovered from running', () => {
    expect(JOB_STATES.filter(isFinal)).toEqual(['succeeded']);
    expect(canTransition('running', 'failed')).toBe(true);
  });

  it('requires "retry anyway" only for uncertain outcomes', () => {
    expect(needsRetryAnyway('uncertain')).toBe(true);
    expect(needsRetryAnyway('retries-exhausted')).toBe(false);
  });
});

describe('download transition table', () => {
  it.each([
    ['pending', 'downloading', true],
    ['downloading', 'done', true],
    ['downloading', 'failed', true],
    ['downloading', 'pending', true],
    ['failed', 'pending', true],
    ['done', 'pending', false],
    ['pending', 'done', false],
    ['failed', 'done', false],
  ] as const)('%s → %s is %s', (from, to, legal) => {
    expect(canDownloadTransition(from, to)).toBe(legal);
    if (!legal) expect(() => assertDownloadTransition(from, to)).toThrow(`"${from}" to "${to}"`);
  });
});
