import { describe, expect, it } from 'vitest';
import {
  compileTemplate,
  DEFAULT_TEMPLATE,
  parseTemplate,
  renderRelativePath,
  TemplateError,
  type NamingInput,
} from '../../../main/core/library/naming.ts';

const input = (overrides: Partial<NamingInput> = {}): NamingInput => ({
  batch: 'Spring',
  index: 7,
  image: 1,
  imageCount: 1,
  prompt: 'A red fox',
  seed: 42,
  model: 'img-model',
  job: 123,
  date: new Date('2026-03-04T10:00:00Z'),
  ext: 'png',
  ...overrides,
});

describe('compileTemplate', () => {
  it('renders the names its template text renders', () => {
    const compiled = compileTemplate(DEFAULT_TEMPLATE);
    expect(renderRelativePath(compiled, input())).toBe('Spring/0007-a-red-fox-42.png');
    expect(renderRelativePath(compiled, input())).toBe(
      renderRelativePath(DEFAULT_TEMPLATE, input()),
    );
  });

  it('refuses a bad template as parseTemplate does', () => {
    expect(() => compileTemplate('{batch}/{index}.png')).toThrow(TemplateError);
  });

  it('is frozen, and a change to the tokens it came from changes nothing', () => {
    const tokens = parseTemplate(DEFAULT_TEMPLATE);
    const compiled = compileTemplate(tokens);
    tokens.splice(0, 2, { kind: 'variable', name: 'model' }, { kind: 'separator' });
    expect(renderRelativePath(compiled, input())).toBe('Spring/0007-a-red-fox-42.png');
    expect(Object.isFrozen(compiled)).toBe(true);
    expect(Object.isFrozen(compiled.stem[0])).toBe(true);
  });
});

describe('{date}', () => {
  const compiled = compileTemplate('{batch}/{date}-{index}.{ext}');
  it.each([
    ['2026-03-04T23:59:59.999Z', '2026-03-04'],
    ['0527-08-04T09:00:00Z', '0527-08-04'],
    ['0000-01-01T00:00:00Z', '0000-01-01'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31'],
    ['+010000-01-01T00:00:00Z', '+010000-01'],
    ['-000001-12-31T00:00:00Z', '-000001-12'],
  ])('%s is written as toISOString writes it: %s', (iso, text) => {
    expect(renderRelativePath(compiled, input({ date: new Date(iso) }))).toBe(
      `Spring/${text}-0007.png`,
    );
  });

  it('an invalid date is refused with or without {date} in the template', () => {
    const date = new Date(NaN);
    expect(() => renderRelativePath(compiled, input({ date }))).toThrow(RangeError);
    expect(() => renderRelativePath(compileTemplate(DEFAULT_TEMPLATE), input({ date }))).toThrow(
      RangeError,
    );
  });
});
