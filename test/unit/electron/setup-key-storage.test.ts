import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockState, resetElectronMock, safeStorage } from '../../support/electron-mock.ts';
import {
  KEY_FILE_NAME,
  PROFILE_KEYS_FILE_NAME,
  REFUSALS,
  SafeStorageKeyProvider,
  setupKeyStorage,
} from '../../../main/electron/setup-key-storage.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

const KEY = 'sk-live-0123456789abcdef1a2b';

let dir: string;
let file: string;
beforeEach(() => {
  resetElectronMock();
  dir = mkdtempSync(join(tmpdir(), 'atelier-key-'));
  file = join(dir, KEY_FILE_NAME);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const provider = (options: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {}) =>
  new SafeStorageKeyProvider({ file, env: {}, platform: 'linux', ...options });

/** Every byte Atelier left in its folder, as text. */
function everythingOnDisk(): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('\n');
}

describe('SafeStorageKeyProvider', () => {
  it('stores the key encrypted, in a 0600 file, and reads it back', async () => {
    const status = await provider().set(`  ${KEY}  `);
    expect(status).toEqual({
      set: true,
      last4: '1a2b',
      source: 'stored',
      storable: true,
      refusal: null,
      profile: null,
      shared: false,
      locked: null,
    });
    expect(safeStorage.encryptStringAsync).toHaveBeenCalledWith(KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]); // no temp file left behind
    // a new process reads it through the keyring
    expect(await provider().get()).toBe(KEY);
  });

  it('never writes the key, or a long piece of it, in plain text', async () => {
    await provider().set(KEY);
    const disk = everythingOnDisk();
    expect(disk).not.toContain(KEY);
    expect(disk).not.toContain(KEY.slice(3, 15));
  });

  it('shows only the last four characters in its status', async () => {
    await provider().set(KEY);
    const status = await provider().status();
    expect(JSON.stringify(status)).not.toContain(KEY.slice(0, -4));
    expect(status.last4).toBe('1a2b');
  });

  it('uses the async safeStorage API only (the sync one is deprecated in Electron 45)', async () => {
    await provider().set(KEY);
    await provider().get();
    expect(safeStorage.encryptString).not.toHaveBeenCalled();
    expect(safeStorage.decryptString).not.toHaveBeenCalled();
    expect(safeStorage.isEncryptionAvailable).not.toHaveBeenCalled();
  });

  it.each([
    ['no sk- prefix', 'pk-0123456789abcdef', /must start with "sk-"/],
    ['too short', 'sk-1234', /cut short/],
    ['a space inside', 'sk-0123 456789abcdef', /spaces/],
  ])('refuses a key with %s as key-invalid, storing nothing', async (_n, key, message) => {
    await expect(provider().set(key)).rejects.toMatchObject({ code: 'key-invalid', message });
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['Linux basic_text backend', { storageBackend: 'basic_text' }, REFUSALS.basicText],
    ['keyring not known yet', { storageBackend: 'unknown' }, REFUSALS.unknown],
    ['no async encryption', { encryptionAvailable: false }, REFUSALS.unavailable],
  ])('refuses to store where %s, and says why', async (_n, state, refusal) => {
    Object.assign(mockState, state);
    await expect(provider().set(KEY)).rejects.toMatchObject({
      code: 'encryption-unavailable',
      message: refusal,
    });
    expect(refusal).toMatch(/ATELIER_API_KEY/);
    expect(readdirSync(dir)).toEqual([]);
    expect(safeStorage.encryptStringAsync).not.toHaveBeenCalled();
    expect(await provider().status()).toEqual({
      set: false,
      last4: null,
      source: null,
      storable: false,
      refusal,
      profile: null,
      shared: false,
      locked: null,
    });
  });

  it('explains basic_text plainly', () => {
    expect(REFUSALS.basicText).toMatch(/no system keyring \(GNOME Keyring, KWallet\)/i);
    expect(REFUSALS.basicText).toMatch(/plain text/);
  });

  it('looks at the Linux backend on Linux only', async () => {
    mockState.storageBackend = 'basic_text';
    expect((await provider({ platform: 'darwin' }).set(KEY)).storable).toBe(true);
    expect(safeStorage.getSelectedStorageBackend).not.toHaveBeenCalled();
  });

  it('lets ATELIER_API_KEY win, without reading the file', async () => {
    await provider().set(KEY);
    const fromEnv = provider({ env: { ATELIER_API_KEY: ' sk-env-0123456789wxyz ' } });
    expect(await fromEnv.get()).toBe('sk-env-0123456789wxyz');
    expect(await fromEnv.status()).toMatchObject({ set: true, source: 'env', last4: 'wxyz' });
  });

  it('refuses to set or clear a key while ATELIER_API_KEY decides, instead of seeming to', async () => {
    const fromEnv = provider({ env: { ATELIER_API_KEY: 'sk-env-0123456789wxyz' } });
    await expect(fromEnv.set(KEY)).rejects.toMatchObject({ code: 'conflict' });
    await expect(fromEnv.clear()).rejects.toThrow(/ATELIER_API_KEY/);
    expect(await fromEnv.get()).toBe('sk-env-0123456789wxyz');
  });

  it('still reports the env key where the keyring cannot store', async () => {
    mockState.storageBackend = 'basic_text';
    const fromEnv = provider({ env: { ATELIER_API_KEY: 'sk-env-0123456789wxyz' } });
    expect(await fromEnv.status()).toEqual({
      set: true,
      last4: 'wxyz',
      source: 'env',
      storable: false,
      refusal: REFUSALS.basicText,
      profile: null,
      shared: false,
      locked: expect.stringMatching(/ATELIER_API_KEY/),
    });
  });

  it('re-encrypts the stored key when the keyring asks', async () => {
    await provider().set(KEY);
    mockState.shouldReEncrypt = true;
    vi.mocked(safeStorage.encryptStringAsync).mockClear();
    expect(await provider().get()).toBe(KEY);
    expect(safeStorage.encryptStringAsync).toHaveBeenCalledWith(KEY);
    mockState.shouldReEncrypt = false;
    expect(await provider().get()).toBe(KEY);
  });

  it('clears the stored key', async () => {
    const keys = provider();
    await keys.set(KEY);
    expect(await keys.clear()).toMatchObject({ set: false, last4: null, source: null });
    expect(readdirSync(dir)).toEqual([]);
    expect(await provider().get()).toBeNull();
  });

  it('has no key before one is set', async () => {
    expect(await provider().get()).toBeNull();
    expect(await provider().status()).toMatchObject({ set: false, storable: true });
  });

  it('reports a key the keyring can no longer decrypt, and asks for it again', async () => {
    writeFileSync(file, 'not sealed by this keyring');
    await expect(provider().get()).rejects.toMatchObject({ code: 'encryption-unavailable' });
    const status = await provider().status();
    expect(status).toMatchObject({ set: false, storable: true });
    expect(status.refusal).toMatch(/could not be decrypted.*set the key again/);
  });

  it("keeps each gateway's own key encrypted beside the shared one, and reads them back", async () => {
    await provider().set(KEY);
    const OFFICE = 'sk-office-0123456789zzzz';
    expect(await provider().set(OFFICE, 'office')).toMatchObject({
      profile: 'office',
      last4: 'zzzz',
      shared: false,
    });
    expect(readdirSync(dir).sort()).toEqual([KEY_FILE_NAME, PROFILE_KEYS_FILE_NAME]);
    expect(statSync(join(dir, PROFILE_KEYS_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(everythingOnDisk()).not.toContain(OFFICE.slice(3, 15));
    // a new process: each gateway its own key, the others the shared one
    expect(await provider().get('office')).toBe(OFFICE);
    expect(await provider().get('home')).toBe(KEY);
    await provider().followProfiles(new Set(['home']), new Map());
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });

  it('keeps its file in the user-data folder', async () => {
    mockState.paths['userData'] = dir;
    await setupKeyStorage().set(KEY);
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });
});
