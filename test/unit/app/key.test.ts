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

  it('lets ATELIER_API_KEY decide, says so before a change, and refuses one', async () => {
    const keys = new MemoryKeyProvider({ ATELIER_API_KEY: 'sk-fromenv00001234' });
    expect(await keys.status()).toMatchObject({
      set: true,
      source: 'env',
      last4: '1234',
      locked: expect.stringMatching(/^The key comes from ATELIER_API_KEY in the environment/),
    });
    expect((await keys.status('work')).locked).toMatch(/for every gateway/);
    await expect(keys.set('sk-another-key-5678', 'work')).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(keys.clear()).rejects.toMatchObject({ code: 'conflict' });
    expect(await keys.get('work')).toBe('sk-fromenv00001234');
    expect((await new MemoryKeyProvider({}).status()).locked).toBeNull();
  });

  it('keeps a key per gateway, the shared key serving those without one', async () => {
    const keys = new MemoryKeyProvider({});
    await keys.set('sk-shared-000000aaaa');
    await keys.set('sk-office-00000bbbb', 'office');
    expect(await keys.get('office')).toBe('sk-office-00000bbbb');
    expect(await keys.get('home')).toBe('sk-shared-000000aaaa');
    expect(await keys.status('home')).toMatchObject({
      profile: 'home',
      shared: true,
      last4: 'aaaa',
    });
    expect(await keys.status('office')).toMatchObject({
      profile: 'office',
      shared: false,
      last4: 'bbbb',
    });
    expect((await keys.all()).sort()).toEqual(['sk-office-00000bbbb', 'sk-shared-000000aaaa']);
    // clearing a gateway's own key falls back to the shared one
    await keys.clear('office');
    expect(await keys.get('office')).toBe('sk-shared-000000aaaa');
  });

  it("moves a renamed gateway's key, and forgets a removed one's", async () => {
    const keys = new MemoryKeyProvider({});
    await keys.set('sk-office-00000bbbb', 'office');
    await keys.set('sk-lab-0000000cccc', 'lab');
    await keys.followProfiles(new Set(['work']), new Map([['office', 'work']]));
    expect(await keys.get('work')).toBe('sk-office-00000bbbb');
    expect(await keys.get('office')).toBeNull();
    expect(await keys.get('lab')).toBeNull();
    expect(await keys.all()).toEqual(['sk-office-00000bbbb']);
  });

  it('checks the shape: sk- and the rest of the key, no spaces', () => {
    expect(() => checkKeyShape('pk-abcdefghijk')).toThrow(/must start with "sk-"/);
    expect(() => checkKeyShape('sk-abc')).toThrow(/cut short/);
    expect(() => checkKeyShape('sk-abc defghijkl')).toThrow(/cut short or has spaces/);
    expect(checkKeyShape(' sk-abcdefghij ')).toBe('sk-abcdefghij');
  });
});
