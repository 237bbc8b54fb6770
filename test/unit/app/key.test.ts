import { describe, expect, it } from 'vitest';
import { checkKeyShape, MemoryKeyProvider } from '../../../main/core/app/key.ts';

describe('the memory key provider (browser host, CLI)', () => {
  it('keeps a key set through the API in memory, showing only its last four characters', async () => {
    const keys = new MemoryKeyProvider({});
    expect(await keys.status()).toMatchObject({ set: false, last4: null, storable: false });
    const status = await keys.set('  sk-abcdefgh1a2b ');
    expect(status).toMatchObject({ set: true, last4: '1a2b', source: 'memory' });
    expect(JSON.stringify(status)).not.toContain('abcdefgh');
    expect(await keys.get()).toBe('sk-abcdefgh1a2b');
    expect(await keys.clear()).toMatchObject({ set: false });
  });

  it('lets ATELIER_API_KEY decide, and refuses a change it would outrank', async () => {
    const keys = new MemoryKeyProvider({ ATELIER_API_KEY: 'sk-fromenv00001234' });
    expect(await keys.status()).toMatchObject({ set: true, source: 'env', last4: '1234' });
    await expect(keys.set('sk-another-key-5678')).rejects.toMatchObject({ code: 'conflict' });
    await expect(keys.clear()).rejects.toMatchObject({ code: 'conflict' });
    expect(await keys.get()).toBe('sk-fromenv00001234');
  });

  it('checks the shape: sk- and the rest of the key, no spaces', () => {
    expect(() => checkKeyShape('pk-abcdefghijk')).toThrow(/must start with "sk-"/);
    expect(() => checkKeyShape('sk-abc')).toThrow(/cut short/);
    expect(() => checkKeyShape('sk-abc defghijkl')).toThrow(/cut short or has spaces/);
    expect(checkKeyShape(' sk-abcdefghij ')).toBe('sk-abcdefghij');
  });
});
