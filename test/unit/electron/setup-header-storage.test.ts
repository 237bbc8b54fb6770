import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockState, resetElectronMock, safeStorage } from '../../support/electron-mock.ts';
import {
  HEADER_REFUSALS,
  HEADERS_FILE_NAME,
  SafeStorageHeaderSecrets,
} from '../../../main/electron/setup-header-storage.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

const UPSTREAM = 'pk-upstream-secret-7c1e4b9a';

let dir: string;
let file: string;
beforeEach(() => {
  resetElectronMock();
  dir = mkdtempSync(join(tmpdir(), 'atelier-headers-'));
  file = join(dir, HEADERS_FILE_NAME);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const secrets = () => new SafeStorageHeaderSecrets({ file, platform: 'linux' });

describe('SafeStorageHeaderSecrets: the desktop’s extra header values', () => {
  it('keeps them encrypted by the keyring in a 0600 file, and reads them back', async () => {
    await secrets().update(new Map([['aaaaaaaaaaaa', UPSTREAM]]), new Set(['aaaaaaaaaaaa']));
    expect(safeStorage.encryptStringAsync).toHaveBeenCalled();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([HEADERS_FILE_NAME]);
    expect(readFileSync(file).toString('latin1')).not.toContain(UPSTREAM);
    expect(readFileSync(file).toString('latin1')).not.toContain(UPSTREAM.slice(3, 15));
    const again = await secrets().get(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    expect([...again]).toEqual([['aaaaaaaaaaaa', UPSTREAM]]);
  });

  it('forgets the values no header names any more, and removes the file when none is left', async () => {
    const store = secrets();
    await store.update(
      new Map([
        ['aaaaaaaaaaaa', 'one-1111'],
        ['bbbbbbbbbbbb', 'two-2222'],
      ]),
      new Set(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']),
    );
    await store.update(new Map(), new Set(['bbbbbbbbbbbb']));
    expect([...(await secrets().get(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']))]).toEqual([
      ['bbbbbbbbbbbb', 'two-2222'],
    ]);
    await store.update(new Map(), new Set());
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses to keep them where the keyring cannot protect them, writing nothing', async () => {
    mockState.storageBackend = 'basic_text';
    await expect(
      secrets().update(new Map([['aaaaaaaaaaaa', UPSTREAM]]), new Set(['aaaaaaaaaaaa'])),
    ).rejects.toMatchObject({ code: 'encryption-unavailable', message: HEADER_REFUSALS.basicText });
    expect(HEADER_REFUSALS.basicText).toMatch(/ATELIER_GATEWAY_HEADERS/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
