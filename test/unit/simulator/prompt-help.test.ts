import { describe, expect, it } from 'vitest';
import type { TextMessage } from '../../../main/simulator/text/messages.ts';
import { replyTo } from '../../../main/simulator/text/model.ts';
import { readPromptRequest } from '../../../main/simulator/text/prompt-request.ts';
import { writePrompts } from '../../../main/simulator/text/prompt-writer.ts';

// The simulated text model reads a request for prompts from the words of the conversation, as
// a language model would, and answers a list on that theme, as many as asked, in the style asked.

const user = (content: string): TextMessage[] => [{ role: 'user', content }];
const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('readPromptRequest', () => {
  it.each([
    ['Write 5 prompts about lighthouses in winter', 'theme', 'lighthouses in winter', 5],
    [
      'Give me ten different image prompts on this theme: a fox in the snow.',
      'theme',
      'a fox in the snow',
      10,
    ],
    ['Write 250 prompts: cats', 'theme', 'cats', 100],
    ['Some prompt ideas about robots, please', 'theme', 'robots, please', 5],
    [
      'Write 3 variations of this prompt: a red kite over dunes',
      'variations',
      'a red kite over dunes',
      3,
    ],
    ['Expand this short prompt into a full one: a lighthouse', 'expand', 'a lighthouse', 1],
  ] as const)('%j', (text, task, subject, count) => {
    expect(readPromptRequest(user(text))).toMatchObject({ task, subject, count, style: 'prose' });
  });

  it('reads the style, the medium, the length limit and the prompts to avoid from the whole conversation', () => {
    const request = readPromptRequest([
      {
        role: 'system',
        content:
          'You write prompts for the video model sora-2. Each prompt is a comma-separated list of tags. Keep each prompt under 300 characters.',
      },
      {
        role: 'user',
        content:
          'Write 2 prompts on this theme: harbours\nThey must differ from these, already kept:\n- harbour at dawn\n- harbour at night',
      },
    ]);
    expect(request).toEqual({
      task: 'theme',
      subject: 'harbours',
      count: 2,
      style: 'tags',
      video: true,
      maxChars: 300,
      avoid: ['harbour at dawn', 'harbour at night'],
    });
  });

  it('reads what is asked before the colon, so a theme may say anything', () => {
    expect(
      readPromptRequest(user('Write 2 prompts on this theme: variations of blue, 9 ideas')),
    ).toMatchObject({
      task: 'theme',
      subject: 'variations of blue, 9 ideas',
      count: 2,
    });
  });

  it('is null for anything else', () => {
    expect(readPromptRequest(user('Describe a lighthouse at dusk in one line.'))).toBeNull();
    expect(readPromptRequest(user('What is a prompt?'))).toBeNull();
  });
});

describe('the simulated model asked for prompts', () => {
  const theme = (count: number, extra = '') =>
    user(`Write ${count} different prompts on this theme: lighthouses in winter${extra}`);

  it('answers as many different prompts as asked, each on the theme, one per line', () => {
    for (const count of [1, 5, 37, 100]) {
      const lines = linesOf(replyTo('gpt-4o-mini', theme(count), null).text);
      expect(lines).toHaveLength(count);
      expect(new Set(lines).size).toBe(count);
      for (const line of lines) expect(line).toMatch(/^Lighthouses in winter /);
    }
  });

  it('tags when asked for tags; camera motion for a video model', () => {
    const tags = linesOf(
      replyTo(
        'gpt-4o-mini',
        [{ role: 'system', content: 'Write comma-separated tags.' }, ...theme(3)],
        null,
      ).text,
    );
    for (const line of tags) {
      expect(line.split(', ').length).toBeGreaterThanOrEqual(5);
      expect(line).toMatch(/^lighthouses in winter, /);
      expect(line).not.toMatch(/\.$/);
    }
    const video = linesOf(
      replyTo(
        'gpt-4o-mini',
        [{ role: 'system', content: 'Prompts for a video model.' }, ...theme(5)],
        null,
      ).text,
    );
    expect(video.join('\n')).toMatch(/dolly-in|drone|tracking shot|pan|static camera/);
  });

  it('keeps under the length asked and away from the prompts listed as kept', () => {
    const [first] = writePrompts(readPromptRequest(theme(1))!, 'gpt-4o-mini');
    const request = readPromptRequest(
      theme(
        3,
        `\nThey must differ from these, already kept:\n- ${first}\nKeep each under 60 characters.`,
      ),
    )!;
    const prompts = writePrompts(request, 'gpt-4o-mini');
    expect(prompts).toHaveLength(3);
    expect(prompts).not.toContain(first);
    for (const prompt of prompts) expect(prompt.length).toBeLessThanOrEqual(60);
  });

  it('words its answer its own way: chatty models number a list under a preamble, reasoning ones think first', () => {
    const chatty = replyTo('qwen-plus', theme(2), null, 'chatty').text;
    expect(chatty).toMatch(/^Here are 2 prompts on "lighthouses in winter":\n\n1\. .+\n2\. .+$/);
    const reasoning = replyTo('deepseek-r1', theme(2), null, 'reasoning').text;
    expect(reasoning).toMatch(/^<think>\n[^<]+\n<\/think>\n\n.+\n.+$/);
  });

  it('expands a prompt into one longer line, and varies one into several', () => {
    const expanded = replyTo('gpt-4o-mini', user('Expand this prompt: a fox'), null).text;
    expect(linesOf(expanded)).toHaveLength(1);
    expect(expanded.length).toBeGreaterThan(60);
    expect(expanded).toMatch(/^A fox /);
    const variations = linesOf(
      replyTo('gpt-4o-mini', user('Write 4 variations of this prompt: a fox in the snow'), null)
        .text,
    );
    expect(variations).toHaveLength(4);
    for (const line of variations) expect(line).toMatch(/^A fox in the snow /);
  });

  it('is deterministic', () => {
    expect(replyTo('gpt-4o-mini', theme(5), null)).toEqual(replyTo('gpt-4o-mini', theme(5), null));
  });
});
