import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEMPLATE,
  MAX_COMPONENT_BYTES,
  TemplateError,
  batchDirName,
  nameCandidates,
  parseTemplate,
  pathKey,
  renderRelativePath,
  resolveInsideLibrary,
  sanitizeComponent,
  slugify,
  truncateUtf8,
  uniqueName,
  type NamingInput,
} from '../../../main/core/library/naming.ts';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function input(overrides: Partial<NamingInput> = {}): NamingInput {
  return {
    batch: 'Spring campaign',
    index: 7,
    image: 1,
    imageCount: 1,
    prompt: 'A red fox, in the snow!',
    seed: 42,
    model: 'img-model',
    size: '1024x1024',
    job: 123,
    date: new Date('2026-03-04T10:00:00Z'),
    ext: 'png',
    ...overrides,
  };
}

/** What every produced name must satisfy on Windows, macOS and Linux. */
function expectPortable(relPath: string) {
  for (const component of relPath.split('/')) {
    expect(component).not.toBe('');
    // eslint-disable-next-line no-control-regex -- no control character may survive
    expect(component).not.toMatch(/[\u0000-\u001f<>:"\\|?*]/);
    expect(component).not.toMatch(/^[.\s]|[.\s]$/);
    expect(component.split('.')[0]).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i);
    expect(bytes(component)).toBeLessThanOrEqual(MAX_COMPONENT_BYTES);
    expect(component).toBe(component.normalize('NFC'));
  }
  expect(() => resolveInsideLibrary('/lib', relPath)).not.toThrow();
  expect(() => resolveInsideLibrary('C:\\lib', relPath, path.win32)).not.toThrow();
}

describe('renderRelativePath', () => {
  it('follows the default layout <batch>/<index>-<slug>-<seed>.<ext>', () => {
    expect(renderRelativePath(DEFAULT_TEMPLATE, input())).toBe(
      'Spring campaign/0007-a-red-fox-in-the-snow-42.png',
    );
  });

  it('drops the separator of a missing seed, maps jpeg to jpg, pads to the batch width', () => {
    expect(
      renderRelativePath(DEFAULT_TEMPLATE, input({ seed: null, ext: 'jpeg', indexWidth: 6 })),
    ).toBe('Spring campaign/000007-a-red-fox-in-the-snow.jpg');
    expect(renderRelativePath('{batch}/{seed}-{slug}.{ext}', input({ seed: null }))).toBe(
      'Spring campaign/a-red-fox-in-the-snow.png',
    );
  });

  it('numbers the images of a multi-image prompt even when the template forgets {image}', () => {
    const names = [1, 2, 3].map((image) =>
      renderRelativePath(DEFAULT_TEMPLATE, input({ image, imageCount: 3 })),
    );
    expect(new Set(names).size).toBe(3);
    expect(names[1]).toBe('Spring campaign/0007-a-red-fox-in-the-snow-42_2.png');
    expect(
      renderRelativePath('{batch}/{index}.{image}.{ext}', input({ image: 2, imageCount: 3 })),
    ).toBe('Spring campaign/0007.2.png');
  });

  it('uses every documented variable', () => {
    expect(
      renderRelativePath(
        '{batch}/{date}/{model}/{size}/{job}-{name}-{image}.{ext}',
        input({ name: 'Hero shot' }),
      ),
    ).toBe('Spring campaign/2026-03-04/img-model/1024x1024/123-Hero shot-1.png');
    expect(renderRelativePath('{batch}/{name}.{ext}', input({ name: null }))).toBe(
      'Spring campaign/a-red-fox-in-the-snow.png',
    );
  });

  const nasty: Array<[string, Partial<NamingInput>]> = [
    ['path traversal in the prompt', { prompt: '../../etc/passwd' }],
    ['path traversal in the name column', { name: '../../../etc/passwd' }],
    ['traversal and separators in the model', { model: '../..\\..\\windows' }],
    ['a batch named ..', { batch: '..' }],
    ['a reserved device name', { prompt: 'CON', name: 'con.txt', batch: 'AUX' }],
    ['trailing dots and spaces', { prompt: 'fox...   ', name: 'hello. . .', batch: 'batch.. ' }],
    ['emoji only', { prompt: '🦊🦊👨‍👩‍👧‍👦', name: '👨‍👩‍👧‍👦'.repeat(80) }],
    ['right-to-left text and overrides', { prompt: 'שועל אדום', name: 'abc\u202egnp.exe' }],
    ['a 10 KB prompt', { prompt: 'fox '.repeat(2560), name: 'ab'.repeat(5000) }],
    ['control characters and forbidden characters', { name: 'a\u0000b\nc<d>e:"f|g?h*' }],
    ['a template injection in a value', { prompt: '{batch}/../{ext}', name: '{job}/..' }],
    ['decomposed Unicode', { name: 'Cafe\u0301', prompt: 'cafe\u0301' }],
    ['nothing usable at all', { prompt: '!!!', name: '...', batch: '   ' }],
  ];

  it.each(nasty)('stays portable and inside the library with %s', (_label, overrides) => {
    for (const template of [DEFAULT_TEMPLATE, '{batch}/{model}/{name}-{slug}.{ext}']) {
      const relPath = renderRelativePath(template, input(overrides));
      expectPortable(relPath);
      expect(relPath.split('/')).toHaveLength(template.split('/').length);
    }
  });

  it('keeps letters of every script, normalised to NFC, and cuts long prompts between graphemes', () => {
    expect(slugify('שועל אדום בשלג')).toBe('שועל-אדום-בשלג');
    expect(slugify('Cafe\u0301 au lait')).toBe('caf\u00e9-au-lait');
    expect(slugify('一只红色的狐狸'.repeat(20))).toHaveLength(16); // 48 bytes of 3-byte characters
    expect(truncateUtf8('ab👨‍👩‍👧‍👦', 10)).toBe('ab');
    expect(slugify('x'.repeat(10_000))).toHaveLength(48);
  });
});

describe('sanitizeComponent', () => {
  it.each([
    ['CON', '_CON'],
    ['con.png', '_con.png'],
    ['Lpt9', '_Lpt9'],
    ['COM1.tar.gz', '_COM1.tar.gz'],
    ['console', 'console'],
    ['a<b>c:d"e/f\\g|h?i*j', 'a_b_c_d_e_f_g_h_i_j'],
    ['  name. . ', 'name'],
    ['.hidden', 'hidden'],
    ['..', 'untitled'],
    ['', 'untitled'],
    ['tab\there', 'tab here'],
    ['abc\u202egnp.exe', 'abcgnp.exe'],
  ])('%j → %j', (raw, safe) => {
    expect(sanitizeComponent(raw)).toBe(safe);
  });

  it('limits a component to 200 bytes without splitting a character', () => {
    const safe = sanitizeComponent('é'.repeat(300));
    expect(bytes(safe)).toBe(200);
    expect(safe).toBe('é'.repeat(100));
  });
});

describe('parseTemplate', () => {
  it.each([
    ['', 'is empty'],
    ['/abs/{index}.{ext}', 'is absolute'],
    ['C:/x/{index}.{ext}', 'is absolute'],
    ['{batch}\\{index}.{ext}', 'contains "\\"'],
    ['{batch}/../{index}.{ext}', 'cannot leave the library'],
    ['{batch}/./{index}.{ext}', 'cannot leave the library'],
    ['{batch}//{index}.{ext}', 'empty folder'],
    ['{batch}/{index}.png', 'must end with ".{ext}"'],
    ['{batch}/{prompt}.{ext}', 'unknown variable {prompt}'],
    ['{batch}/{index.{ext}', 'unmatched brace'],
    ['{index}-{slug}.{ext}', 'must start with "{batch}/"'],
    ['{date}/{batch}/{index}.{ext}', 'must start with "{batch}/"'],
    ['{batch}-{model}/{index}.{ext}', 'must start with "{batch}/"'],
  ])('refuses %j (%s)', (template, message) => {
    expect(() => parseTemplate(template)).toThrow(TemplateError);
    expect(() => parseTemplate(template)).toThrow(message);
  });

  it('accepts the default template and reports the variables in errors', () => {
    expect(parseTemplate(DEFAULT_TEMPLATE)).toHaveLength(9);
    expect(() => parseTemplate('{x}.{ext}')).toThrow('{batch} {index} {image}');
  });
});

describe('collisions', () => {
  it('adds ~2, ~3… before the extension, comparing names case-insensitively', () => {
    const taken = new Set(['spring/0001-fox.png', 'spring/0001-fox~2.png'].map(pathKey));
    expect(uniqueName('Spring/0001-FOX.png', (name) => taken.has(pathKey(name)))).toBe(
      'Spring/0001-FOX~3.png',
    );
    expect(uniqueName('a/b.png', () => false)).toBe('a/b.png');
  });

  it('treats composed and decomposed accents as the same name', () => {
    expect(pathKey('Cafe\u0301.png')).toBe(pathKey('CAF\u00c9.PNG'));
  });

  it('keeps a suffixed name within the component limit', () => {
    const long = `dir/${'x'.repeat(MAX_COMPONENT_BYTES - 4)}.png`;
    const candidates = nameCandidates(long);
    candidates.next();
    const second = candidates.next().value as string | undefined;
    expect(second!.endsWith('~2.png')).toBe(true);
    expect(bytes(second!.split('/')[1]!)).toBeLessThanOrEqual(MAX_COMPONENT_BYTES);
  });

  it('gives batches unique, safe folder names', () => {
    const taken = new Set<string>();
    const names = ['Spring', 'spring', 'SPRING', 'CON', '../x'].map((name) => {
      const dir = batchDirName(name, (candidate) => taken.has(pathKey(candidate)));
      taken.add(pathKey(dir));
      return dir;
    });
    expect(names).toEqual(['Spring', 'spring~2', 'SPRING~3', '_CON', '_x']);
  });
});

describe('resolveInsideLibrary', () => {
  it.each([
    ['../outside.png'],
    ['a/../../outside.png'],
    ['/etc/passwd'],
    ['C:/Windows/win.ini'],
    ['a\u0000b'],
    [''],
    ['.'],
  ])('refuses %j on POSIX', (relPath) => {
    expect(() => resolveInsideLibrary('/lib', relPath, path.posix)).toThrow('Refusing to write');
  });

  it.each([['..\\outside.png'], ['a\\..\\..\\x'], ['C:\\x.png'], ['\\\\server\\share\\x']])(
    'refuses %j on Windows',
    (relPath) => {
      expect(() => resolveInsideLibrary('C:\\lib', relPath, path.win32)).toThrow(
        'Refusing to write',
      );
    },
  );

  it('resolves a safe path, even one whose name starts with two dots', () => {
    expect(resolveInsideLibrary('/lib', 'b/..x.png', path.posix)).toBe('/lib/b/..x.png');
    expect(resolveInsideLibrary('C:\\lib', 'b/x.png', path.win32)).toBe('C:\\lib\\b\\x.png');
  });
});

describe('fast paths give the same names', () => {
  it('renders a parsed token array again after it changes', () => {
    const tokens = parseTemplate(DEFAULT_TEMPLATE);
    expect(renderRelativePath(tokens, input())).toBe(
      'Spring campaign/0007-a-red-fox-in-the-snow-42.png',
    );
    tokens.splice(0, 2, { kind: 'variable', name: 'model' }, { kind: 'separator' });
    expect(renderRelativePath(tokens, input())).toBe('img-model/0007-a-red-fox-in-the-snow-42.png');
  });

  it('refuses a bad extension or date every time, whether or not the template shows the date', () => {
    const tokens = parseTemplate(DEFAULT_TEMPLATE);
    expect(renderRelativePath(tokens, input({ ext: 'PNG' }))).toMatch(/\.png$/);
    for (const ext of ['', 'p ng', 'png/..']) {
      expect(() => renderRelativePath(tokens, input({ ext }))).toThrow(
        `"${ext}" is not a usable file extension`,
      );
    }
    expect(renderRelativePath(tokens, input())).toMatch(/\.png$/);
    expect(() => renderRelativePath(tokens, input({ date: new Date(NaN) }))).toThrow(RangeError);
  });

  it('slugs ASCII prompts like any other text', () => {
    const long = 'A Cinematic photograph of an old lighthouse at dusk, on a rocky coast! 35mm';
    expect(slugify(long)).toBe('a-cinematic-photograph-of-an-old-lighthouse-at-d');
    expect(slugify(`${long}é`)).toBe(slugify(long));
    expect(slugify('--x--', 2)).toBe('x');
    expect(slugify('ab cd', 3)).toBe('ab');
    expect(slugify('fox '.repeat(2560))).toBe('fox-'.repeat(12).slice(0, -1));
  });

  it('cuts a long text between graphemes wherever the cut falls', () => {
    const long = 'x'.repeat(10_000);
    expect(truncateUtf8(`ab👨‍👩‍👧‍👦${long}`, 10)).toBe('ab');
    expect(truncateUtf8(`ab👍🏽${long}`, 10)).toBe('ab👍🏽');
    expect(truncateUtf8(`abc🏽${long}`, 3)).toBe('ab'); // a skin tone joins the letter before
    expect(truncateUtf8(`abc\r\n${long}`, 4)).toBe('abc'); // CR LF is one grapheme
    expect(truncateUtf8(`abce\u0301${long}`, 4)).toBe('abc');
    expect(truncateUtf8(long, 0)).toBe('');
  });

  it('still refuses reserved names and collapses spaces in plain ASCII', () => {
    expect(sanitizeComponent('con .png')).toBe('_con .png');
    expect(sanitizeComponent('a  b')).toBe('a b');
    expect(sanitizeComponent('x'.repeat(201))).toBe('x'.repeat(200));
    expect(sanitizeComponent('plain-name_1.txt')).toBe('plain-name_1.txt');
  });
});

describe('resolveInsideLibrary at the root of a drive', () => {
  it('accepts paths under "/" and "C:\\", refuses the root itself', () => {
    expect(resolveInsideLibrary('/', 'a/x.png', path.posix)).toBe('/a/x.png');
    expect(resolveInsideLibrary('C:\\', 'a/x.png', path.win32)).toBe('C:\\a\\x.png');
    expect(() => resolveInsideLibrary('/', '.', path.posix)).toThrow('Refusing to write');
    expect(() => resolveInsideLibrary('/lib', 'a/..', path.posix)).toThrow('Refusing to write');
    expect(() => resolveInsideLibrary('/lib', '../lib2/x.png', path.posix)).toThrow(
      'Refusing to write',
    );
  });
});
