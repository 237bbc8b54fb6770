import { describe, expect, it } from 'vitest';
import {
  chatDelta,
  readChatResponse,
  readResponsesBody,
  responsesDelta,
} from '../../../main/core/gateway/read/text-response.ts';
import { readVideoTask } from '../../../main/core/gateway/read/video-task.ts';

describe('text readers (interface 2.6)', () => {
  it('reads choices[0].message.content and the token counters', () => {
    const reading = readChatResponse({
      choices: [{ message: { role: 'assistant', content: 'hi' } }],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
    expect(reading).toMatchObject({
      ok: true,
      value: { content: 'hi', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 } },
    });
    expect(readChatResponse({ choices: [] }).ok).toBe(false);
  });

  it.each([
    [{ choices: [{ delta: { content: 'ab' } }] }, 'ab'],
    [{ choices: [{ delta: {} }] }, ''],
    [{ choices: [{ delta: { content: '' } }] }, ''],
    [{ choices: [{ delta: { role: 'assistant', content: null } }] }, ''],
    [{ choices: [], usage: { total_tokens: 1 } }, ''],
    ['nonsense', ''],
  ])('chat delta of %j is %j', (chunk, text) => {
    expect(chatDelta(chunk)).toBe(text);
  });

  it('reads a response object: output_text or the text parts of output', () => {
    expect(readResponsesBody({ output_text: 'a' })).toMatchObject({
      ok: true,
      value: { text: 'a' },
    });
    expect(
      readResponsesBody({
        output: [
          { type: 'reasoning', content: [] },
          {
            type: 'message',
            content: [
              { type: 'output_text', text: 'b' },
              { type: 'output_text', text: 'c' },
            ],
          },
        ],
      }),
    ).toMatchObject({ ok: true, value: { text: 'bc' } });
  });

  it('takes only output_text deltas from the Responses stream', () => {
    expect(responsesDelta({ type: 'response.output_text.delta', delta: 'x' })).toBe('x');
    expect(responsesDelta({ type: 'response.output_text.done', text: 'xyz' })).toBe('');
  });
});

describe('readVideoTask', () => {
  it('reads the OpenAI video object, preferring the platform state', () => {
    expect(
      readVideoTask(
        {
          id: 'v1',
          status: 'in_progress',
          progress: 40,
          task_status: 'IN_PROGRESS',
          fail_reason: null,
        },
        'videos',
      ),
    ).toMatchObject({
      ok: true,
      task: { id: 'v1', api: 'videos', state: 'IN_PROGRESS', progress: 40 },
    });
    expect(readVideoTask({ id: 'v1', status: 'completed' }, 'videos')).toMatchObject({
      task: { state: 'SUCCESS' },
    });
  });

  it('reads the task-style envelope with a percentage progress and a fail reason', () => {
    expect(
      readVideoTask(
        {
          code: 'success',
          message: '',
          data: { task_id: 't1', status: 'FAILURE', progress: '100%', fail_reason: 'refused' },
        },
        'video-generations',
      ),
    ).toMatchObject({
      ok: true,
      task: { id: 't1', state: 'FAILURE', progress: 100, failReason: 'refused' },
    });
  });

  it("takes a failed task's code and message from the top of the envelope (interface 7 rule 2)", () => {
    const failed = (code: unknown, message: unknown, failReason: string | null) =>
      readVideoTask(
        { code, message, data: { task_id: 't1', status: 'FAILURE', fail_reason: failReason } },
        'video-generations',
      );
    expect(failed('insufficient_user_quota', 'top up', 'no quota')).toMatchObject({
      task: { state: 'FAILURE', errorCode: 'insufficient_user_quota', failReason: 'no quota' },
    });
    expect(failed('insufficient_user_quota', 'top up', null)).toMatchObject({
      task: { errorCode: 'insufficient_user_quota', failReason: 'top up' },
    });
    // "success" is the envelope saying the query worked, not an error code
    expect(failed('success', '', 'refused')).toMatchObject({
      task: { errorCode: null, failReason: 'refused' },
    });
    // a running task's envelope code is never taken for an error
    expect(
      readVideoTask(
        { code: 'odd', message: 'x', data: { task_id: 't1', status: 'IN_PROGRESS' } },
        'video-generations',
      ),
    ).toMatchObject({ task: { state: 'IN_PROGRESS', errorCode: null, failReason: null } });
  });

  it('takes the fail reason from an error object', () => {
    expect(
      readVideoTask(
        { id: 'v', status: 'failed', error: { code: 'video_generation_failed', message: 'no' } },
        'videos',
      ),
    ).toMatchObject({
      task: { state: 'FAILURE', failReason: 'no', errorCode: 'video_generation_failed' },
    });
  });

  it('refuses a record without an id', () => {
    expect(readVideoTask({ status: 'queued' }, 'videos').ok).toBe(false);
  });
});
