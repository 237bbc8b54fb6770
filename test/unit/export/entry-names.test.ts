import { describe, expect, it } from 'vitest';
import { EntryNames } from '../../../main/core/export/entry-names.ts';

describe('EntryNames', () => {
  it('keeps library paths, batch folders included', () => {
    const names = new EntryNames(['manifest.csv']);
    expect(names.claim('Beasts/001-owl-42.png')).toBe('Beasts/001-owl-42.png');
    expect(names.claim('Other/001-owl-42.png')).toBe('Other/001-owl-42.png');
  });

  it('makes repeats unique where case does not count, and never takes a reserved name', () => {
    const names = new EntryNames(['manifest.csv']);
    expect(names.claim('a/Owl.png')).toBe('a/Owl.png');
    expect(names.claim('a/owl.PNG')).toBe('a/owl (2).PNG');
    expect(names.claim('a/OWL.png')).toBe('a/OWL (3).png');
    expect(names.claim('Manifest.csv')).toBe('Manifest (2).csv');
    expect(names.claim('a.b/noext')).toBe('a.b/noext');
    expect(names.claim('a.b/noext')).toBe('a.b/noext (2)');
  });

  it('never names an entry outside the zip', () => {
    const names = new EntryNames();
    expect(names.claim('../../etc/x.png')).toBe('etc/x.png');
    expect(names.claim('\\\\server\\share\\y.png')).toBe('server/share/y.png');
    expect(names.claim('/abs/./z.png')).toBe('abs/z.png');
  });
});
