import { describe, expect, it } from 'vitest';
import { ThumbnailMaker } from '../../../main/core/library/thumbnail-maker.ts';

/** A make whose calls wait until the test ends them, counting how many run at once. */
function controlledMake() {
  const calls: string[] = [];
  const finish = new Map<string, (error?: Error) => void>();
  let active = 0;
  let most = 0;
  const make = (path: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push(path);
      active++;
      most = Math.max(most, active);
      finish.set(path, (error) => {
        active--;
        if (error) reject(error);
        else resolve();
      });
    });
  return { make, calls, finish, most: () => most };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ThumbnailMaker', () => {
  it('makes at most two at once, and one per image however often it is asked', async () => {
    const fake = controlledMake();
    const maker = new ThumbnailMaker({ make: fake.make });
    const paths = ['/l/a.png', '/l/b.png', '/l/c.png', '/l/d.png', '/l/e.png'];
    const results = [...paths, '/l/a.png', '/l/c.png'].map((path) => maker.make(path, '/l'));
    await settle();
    expect(fake.calls).toEqual(['/l/a.png', '/l/b.png']);
    // each one finished lets exactly the next one start
    for (const [i, path] of paths.entries()) {
      fake.finish.get(path)!();
      await settle();
      expect(fake.calls).toEqual(paths.slice(0, Math.min(i + 3, paths.length)));
    }
    expect(await Promise.all(results)).toEqual([true, true, true, true, true, true, true]);
    expect(fake.most()).toBe(2);
  });

  it('skips videos, and does not try again an image it failed on', async () => {
    const fake = controlledMake();
    const failures: string[] = [];
    const maker = new ThumbnailMaker({
      make: fake.make,
      onFailure: (path, error) => failures.push(`${path}: ${error.message}`),
    });
    expect(await maker.make('/l/clip.mp4', '/l')).toBe(false);
    const first = maker.make('/l/bad.png', '/l');
    await settle();
    fake.finish.get('/l/bad.png')!(new Error('unsupported image format'));
    expect(await first).toBe(false);
    expect(await maker.make('/l/bad.png', '/l')).toBe(false);
    expect(fake.calls).toEqual(['/l/bad.png']);
    expect(failures).toEqual(['/l/bad.png: unsupported image format']);
  });

  it('warns in the logger it is given when no one else is told of a failure', async () => {
    const fake = controlledMake();
    const warnings: string[] = [];
    const maker = new ThumbnailMaker({
      make: fake.make,
      logger: { warn: (m) => warnings.push(m) },
    });
    const made = maker.make('/l/bad.png', '/l');
    await settle();
    fake.finish.get('/l/bad.png')!(new Error('unsupported image format'));
    expect(await made).toBe(false);
    expect(warnings).toEqual([
      'could not make the thumbnail of /l/bad.png: unsupported image format',
    ]);
  });
});
