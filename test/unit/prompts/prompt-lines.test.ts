import { describe, expect, it } from 'vitest';
import {
  clampPrompt,
  cleanPromptLine,
  createPromptParser,
  promptKey,
  type PromptIdea,
  type PromptParserOptions,
} from '../../../shared/prompts/prompt-lines.ts';
import { createThinkFilter } from '../../../shared/prompts/think-filter.ts';

const LINES: PromptParserOptions = { limit: 1000, targetModel: 'flux-schnell', mode: 'lines' };

/** The prompts a parser makes of `pieces`, and its partial line after each piece. */
function parse(pieces: string[], options: Partial<PromptParserOptions> = {}) {
  const parser = createPromptParser({ ...LINES, ...options });
  const ideas: PromptIdea[] = [];
  const partials: string[] = [];
  for (const piece of pieces) {
    ideas.push(...parser.push(piece));
    partials.push(parser.partial());
  }
  ideas.push(...parser.end());
  return { ideas, texts: ideas.map((idea) => idea.text), partials, parser };
}

/** Every way of cutting `text` in two and in three (by UTF-16 unit, as a decoder never does). */
function* cuts(text: string): Generator<string[]> {
  const chars = Array.from(text);
  const at = (a: number, b?: number) => chars.slice(a, b).join('');
  for (let i = 1; i < chars.length; i++) {
    yield [at(0, i), at(i)];
    for (let j = i + 1; j < chars.length; j++) yield [at(0, i), at(i, j), at(j)];
  }
}

describe('cleanPromptLine', () => {
  it.each([
    ['1. a lighthouse at dusk', 'a lighthouse at dusk'],
    ['12) a lighthouse at dusk', 'a lighthouse at dusk'],
    ['(3) a lighthouse at dusk', 'a lighthouse at dusk'],
    ['#4 a lighthouse at dusk', 'a lighthouse at dusk'],
    ['5 - a lighthouse at dusk', 'a lighthouse at dusk'],
    ['Prompt 6: a lighthouse at dusk', 'a lighthouse at dusk'],
    ['Variation 2 - a lighthouse at dusk', 'a lighthouse at dusk'],
    ['- a lighthouse at dusk', 'a lighthouse at dusk'],
    ['* a lighthouse at dusk', 'a lighthouse at dusk'],
    ['• a lighthouse at dusk', 'a lighthouse at dusk'],
    ['– a lighthouse at dusk', 'a lighthouse at dusk'],
    ['- [ ] a lighthouse at dusk', 'a lighthouse at dusk'],
    ['"a lighthouse at dusk"', 'a lighthouse at dusk'],
    ['1. "a lighthouse at dusk"', 'a lighthouse at dusk'],
    ['“a lighthouse at dusk”', 'a lighthouse at dusk'],
    ['「灯台、夕暮れ」', '灯台、夕暮れ'],
    ['**a lighthouse at dusk**', 'a lighthouse at dusk'],
    ['1. **"a lighthouse at dusk"**', 'a lighthouse at dusk'],
    ['2. **A lighthouse** at dusk, **waves** below', 'A lighthouse at dusk, waves below'],
    ['a * b ** c', 'a * b ** c'],
    ['"a lighthouse at dusk', 'a lighthouse at dusk'],
    ['a lighthouse at dusk"', 'a lighthouse at dusk'],
    ['   a   lighthouse\tat dusk  ', 'a lighthouse at dusk'],
    // numbers that belong to the prompt stay
    ['3.5 metre tall statue, 4:3 frame', '3.5 metre tall statue, 4:3 frame'],
    ['1990s street, "neon" signs', '1990s street, "neon" signs'],
    ['masterpiece, 1girl, red scarf, snow', 'masterpiece, 1girl, red scarf, snow'],
  ])('%j → %j', (line, prompt) => {
    expect(cleanPromptLine(line)).toBe(prompt);
  });

  it.each([
    '',
    '   ',
    'Here are 5 prompts about lighthouses:',
    '```',
    '```text',
    '---',
    '## Prompts',
    '"',
  ])('%j is not a prompt', (line) => {
    expect(cleanPromptLine(line)).toBeNull();
  });
});

describe('promptKey and clampPrompt', () => {
  it('two prompts differing in case, spacing or final punctuation are the same', () => {
    expect(promptKey('A Lighthouse  at dusk.')).toBe(promptKey('a lighthouse at dusk'));
    expect(promptKey('a lighthouse at dawn')).not.toBe(promptKey('a lighthouse at dusk'));
  });

  it('leaves a prompt within the limit alone', () => {
    expect(clampPrompt('short', 5, 'dall-e-2')).toEqual({ text: 'short', note: null });
  });

  it('cuts at a word near the limit, counting characters (not UTF-16 units), with a note', () => {
    const text = `${'🌅'.repeat(10)} glowing harbour lights`;
    const { text: cut, note } = clampPrompt(text, 20, 'dall-e-2');
    expect(Array.from(cut).length).toBeLessThanOrEqual(20);
    expect(cut).toBe(`${'🌅'.repeat(10)} glowing`);
    expect(note).toBe(
      `Cut to 18 characters, the prompt limit of dall-e-2 (the model wrote ${Array.from(text).length}).`,
    );
  });

  it('cuts mid-word when no space is near the end', () => {
    const { text, note } = clampPrompt('a'.repeat(50), 10, null);
    expect(text).toBe('a'.repeat(10));
    expect(note).toMatch(/^Cut to 10 characters, the prompt limit \(the model wrote 50\)\.$/);
  });
});

describe('think blocks', () => {
  const ANSWER = 'a<think>plan: 1. x\n2. y</think>b<THINKING>more</THINKING>c';

  it('are removed however the text is cut, tags included', () => {
    for (const pieces of cuts(ANSWER)) {
      const filter = createThinkFilter();
      const visible = pieces.map((piece) => filter.push(piece)).join('') + filter.end();
      expect(visible, JSON.stringify(pieces)).toBe('abc');
    }
  });

  it('an unclosed block hides the rest; a "<" that starts no tag is kept', () => {
    const filter = createThinkFilter();
    expect(filter.push('x < y <th')).toBe('x < y ');
    expect(filter.push('ink>hidden')).toBe('');
    expect(filter.thinking).toBe(true);
    expect(filter.end()).toBe('');
    const other = createThinkFilter();
    expect(other.push('a <b')).toBe('a <b');
    expect(other.push('<thi')).toBe('');
    expect(other.end()).toBe('<thi');
  });
});

describe('createPromptParser', () => {
  const ANSWER = [
    '<think>The person wants lighthouses.\n1. not a prompt\n</think>',
    'Here are 4 prompts about lighthouses:',
    '',
    '1. A lighthouse at dusk, waves breaking',
    '2. "A red lighthouse in fog"',
    '3. a lighthouse at dusk, waves breaking.',
    '- An abandoned lighthouse, ivy, morning light',
    '4) A lighthouse keeper reading by lamplight',
  ].join('\n');
  const EXPECTED = [
    'A lighthouse at dusk, waves breaking',
    'A red lighthouse in fog',
    'An abandoned lighthouse, ivy, morning light',
    'A lighthouse keeper reading by lamplight',
  ];

  it('one prompt per line: think block, preamble, numbers, bullets, quotes gone; duplicates dropped', () => {
    const { texts, parser } = parse([ANSWER]);
    expect(texts).toEqual(EXPECTED);
    expect(parser.duplicates).toBe(1);
  });

  it('gives the same prompts however the stream is cut', () => {
    const short = '<think>x\n1. no</think>1. "a 🌅"\n- b\n\n2) a 🌅.';
    for (const pieces of cuts(short)) {
      expect(parse(pieces).texts, JSON.stringify(pieces)).toEqual(['a 🌅', 'b']);
    }
    // and the long answer, piece by piece as tokens arrive
    expect(parse(ANSWER.match(/\s*\S+|\s+$/g)!).texts).toEqual(EXPECTED);
    expect(parse(Array.from(ANSWER)).texts).toEqual(EXPECTED);
  });

  it('each prompt is given as soon as its line ends, and the line being written is partial', () => {
    const { ideas, partials } = parse(['<think>hm', '</think>1. a fox', ' in snow\n2. an o', 'wl']);
    expect(partials).toEqual(['', 'a fox', 'an o', 'an owl']);
    expect(ideas.map((idea) => idea.text)).toEqual(['a fox in snow', 'an owl']);
    const parser = createPromptParser(LINES);
    expect(parser.push('1. a fox\n2. an')).toEqual([{ text: 'a fox', note: null }]);
  });

  it('prompts already kept count as duplicates', () => {
    const { texts, parser } = parse(['a fox\nAn owl.\nA hare'], { exclude: ['an owl'] });
    expect(texts).toEqual(['a fox', 'A hare']);
    expect(parser.duplicates).toBe(1);
  });

  it('stops at the count asked for, and says it is full', () => {
    const { texts, parser } = parse(['a\nb\nc\nd'], { count: 2 });
    expect(texts).toEqual(['a', 'b']);
    expect(parser.full).toBe(true);
    expect(parser.partial()).toBe('');
  });

  it('cuts each prompt to the target model’s limit with a note', () => {
    const long = `a lighthouse ${'with many details '.repeat(10)}`.trim();
    const { ideas } = parse([`${long}\nshort one`], { limit: 60, targetModel: 'dall-e-2' });
    expect(ideas[0]!.text.length).toBeLessThanOrEqual(60);
    expect(ideas[0]!.note).toMatch(/^Cut to \d+ characters, the prompt limit of dall-e-2/);
    expect(ideas[1]).toEqual({ text: 'short one', note: null });
  });

  it('whole mode: the answer is one prompt, its lines joined, preamble and quotes gone', () => {
    const { texts, partials } = parse(
      [
        '<think>expand it</think>Here is the expanded prompt:\n\n"A lighthouse at dusk,',
        '\nwaves breaking on black rocks."',
      ],
      { mode: 'whole', count: 1 },
    );
    expect(texts).toEqual(['A lighthouse at dusk, waves breaking on black rocks.']);
    expect(partials[0]).toBe('A lighthouse at dusk,');
  });
});
