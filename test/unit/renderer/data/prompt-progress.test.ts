import { describe, expect, it } from 'vitest';
import { withProgress } from '../../../../renderer/src/data/prompt-progress.ts';
import type { PromptHelp, PromptHelpProgress } from '../../../../renderer/src/data/types.ts';

const idea = (index: number) => ({ index, text: `prompt ${index}`, note: null });

const help = (patch: Partial<PromptHelp> = {}): PromptHelp => ({
  id: 'r1',
  task: 'theme',
  model: 'gpt-4o-mini',
  targetModel: null,
  limit: 32_000,
  asked: 5,
  state: 'running',
  prompts: [idea(0), idea(1)],
  partial: 'prompt 2 is bei',
  duplicates: 0,
  error: null,
  startedAt: 1,
  endedAt: null,
  ...patch,
});

const event = (patch: Partial<PromptHelpProgress> = {}): PromptHelpProgress => ({
  id: 'r1',
  state: 'running',
  added: [],
  partial: '',
  duplicates: 0,
  error: null,
  ...patch,
});

describe("a prompt-help request's events written into what the window knows", () => {
  it('adds the prompts that follow, and the line being written', () => {
    const { help: next, gap } = withProgress(
      help(),
      event({ added: [idea(2)], partial: 'prompt 3', duplicates: 1 }),
    );
    expect(gap).toBe(false);
    expect(next.prompts.map((p) => p.index)).toEqual([0, 1, 2]);
    expect(next).toMatchObject({ partial: 'prompt 3', duplicates: 1, state: 'running' });
  });

  it('skips prompts it already read through prompts.get (an event older than the read)', () => {
    const { help: next } = withProgress(help(), event({ added: [idea(1), idea(2)] }));
    expect(next.prompts.map((p) => p.index)).toEqual([0, 1, 2]);
  });

  it('says prompts were missed when an event starts past what it knows', () => {
    const before = help();
    const { help: next, gap } = withProgress(before, event({ added: [idea(4)] }));
    expect(gap).toBe(true);
    expect(next).toBe(before);
  });

  it('ends with the last event, and an ended request stays ended', () => {
    const failed = event({
      state: 'failed',
      error: { code: 'gateway-error', message: 'The balance is used up: top it up.' },
    });
    const { help: ended } = withProgress(help(), failed);
    expect(ended.state).toBe('failed');
    expect(ended.error?.message).toBe('The balance is used up: top it up.');
    expect(ended.endedAt).not.toBe(null);
    expect(withProgress(ended, event({ added: [idea(2)] })).help).toBe(ended);
  });
});
