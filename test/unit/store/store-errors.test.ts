import { describe, expect, it } from 'vitest';
import { StoreDiskError, storeDiskProblem } from '../../../main/core/store/store-errors.ts';

const sqlite = (code: string) => Object.assign(new Error(code), { code });

describe('storeDiskProblem', () => {
  it("tells the disk's refusals from one write's failures", () => {
    expect(storeDiskProblem(sqlite('SQLITE_FULL'))).toBe('full');
    expect(storeDiskProblem(sqlite('SQLITE_READONLY'))).toBe('read-only');
    expect(storeDiskProblem(sqlite('SQLITE_READONLY_DBMOVED'))).toBe('read-only');
    expect(storeDiskProblem(sqlite('SQLITE_IOERR_WRITE'))).toBe('io');
    expect(storeDiskProblem(sqlite('SQLITE_IOERR_FSYNC'))).toBe('io');
    expect(storeDiskProblem(sqlite('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storeDiskProblem(sqlite('SQLITE_BUSY'))).toBeNull();
    expect(storeDiskProblem(new Error('plain'))).toBeNull();
    expect(storeDiskProblem(null)).toBeNull();
  });

  it('says which folder, what is wrong and what to do, with the pause code', () => {
    const full = new StoreDiskError('/data/atelier.db', 'full', sqlite('SQLITE_FULL'));
    expect(full.code).toBe('data-folder-full');
    expect(full.message).toMatch(
      /^The disk holding the data folder \/data is full \(SQLITE_FULL\).*Free some space on it, then resume/,
    );
    const readOnly = new StoreDiskError('/data/atelier.db', 'read-only', sqlite('SQLITE_READONLY'));
    expect(readOnly.code).toBe('data-folder-read-only');
    expect(readOnly.message).toMatch(/data folder \/data became read-only.*writable again/);
  });
});
