import { describe, expect, it } from 'vitest';
import { RenderCache } from '../../../main/simulator/images/cache.ts';
import { FileLinks } from '../../../main/simulator/images/links.ts';
import type { RenderSpec } from '../../../main/simulator/images/render.ts';
import { imageServices } from '../../../main/simulator/images/services.ts';
import { SourceStore } from '../../../main/simulator/images/sources.ts';
import { resolveOptions } from '../../../main/simulator/options.ts';

const spec = (format: RenderSpec['format'] = 'png'): RenderSpec => ({
  prompt: 'p',
  seed: 1,
  index: 0,
  width: 8,
  height: 8,
  format,
  detail: '',
  watermark: false,
  source: 'digest',
  mask: null,
});
const idOf = (path: string) =>
  /^\/files\/([0-9a-z]+)\.(\w+)$/.exec(path)!.slice(1) as [string, string];

describe('FileLinks', () => {
  it('serves a link until its TTL, then answers expired, even after the sweep', () => {
    const forgotten: RenderSpec[] = [];
    const links = new FileLinks(1000, (s) => forgotten.push(s));
    const [id, ext] = idOf(links.create(spec('jpeg'), 10_000));
    expect(ext).toBe('jpg');
    expect(links.lookup(id, ext, 10_999)).toMatchObject({ state: 'live' });
    expect(links.lookup(id, ext, 11_000)).toEqual({ state: 'expired' });
    expect(links.size).toBe(0);
    expect(forgotten).toHaveLength(1);
    expect(links.lookup(id, ext, 50_000)).toEqual({ state: 'expired' });
  });

  it('answers unknown for made-up ids and a wrong extension', () => {
    const links = new FileLinks(1000);
    const [id] = idOf(links.create(spec(), 0));
    expect(links.lookup(id, 'webp', 1)).toEqual({ state: 'unknown' });
    expect(links.lookup('nothing', 'png', 1)).toEqual({ state: 'unknown' });
  });

  it('sweeps only expired links, oldest first', () => {
    const links = new FileLinks(100);
    links.create(spec(), 0);
    links.create(spec(), 50);
    links.sweep(120);
    expect(links.size).toBe(1);
  });
});

describe('RenderCache', () => {
  it('renders once for concurrent and repeated gets', async () => {
    const cache = new RenderCache(4);
    let calls = 0;
    const render = async () => {
      calls++;
      return Buffer.from('x');
    };
    const [a, b] = await Promise.all([cache.get('k', render), cache.get('k', render)]);
    await cache.get('k', render);
    expect(a.equals(b)).toBe(true);
    expect(calls).toBe(1);
  });

  it('evicts the least recently used entry beyond its capacity', async () => {
    const cache = new RenderCache(2);
    const render = async () => Buffer.from('x');
    await cache.get('a', render);
    await cache.get('b', render);
    await cache.get('a', render); // a is now the most recent
    await cache.get('c', render);
    const before = cache.renders;
    await cache.get('a', render);
    expect(cache.renders).toBe(before);
    await cache.get('b', render);
    expect(cache.renders).toBe(before + 1);
  });

  it('evicts by bytes and forgets failed renders', async () => {
    const cache = new RenderCache(100, 10);
    await cache.get('big', async () => Buffer.alloc(8));
    await cache.get('big2', async () => Buffer.alloc(8));
    expect(cache.size).toBe(1);
    await expect(cache.get('bad', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await Promise.resolve();
    await expect(cache.get('bad', async () => Buffer.from('ok'))).resolves.toEqual(
      Buffer.from('ok'),
    );
  });
});

describe('SourceStore', () => {
  it('holds one copy per content while referenced', () => {
    const store = new SourceStore();
    const a = store.retain(Buffer.from('picture'));
    const b = store.retain(Buffer.from('picture'));
    expect(a).toBe(b);
    store.share(a);
    store.release(a);
    store.release(a);
    expect(store.get(a)?.toString()).toBe('picture');
    store.release(a);
    expect(store.get(a)).toBeUndefined();
  });
});

describe('imageServices', () => {
  it('releases an edit input once every link to it has expired', () => {
    const state = { options: resolveOptions({ urlTtlMs: 100 }) } as Parameters<
      typeof imageServices
    >[0];
    const services = imageServices(state);
    expect(imageServices(state)).toBe(services);
    const digest = services.sources.retain(Buffer.from('input'));
    services.sources.share(digest);
    services.links.create({ ...spec(), source: digest }, 0);
    services.sources.release(digest); // the request is over; the link still holds it
    expect(services.sources.get(digest)).toEqual(Buffer.from('input'));
    services.links.sweep(100);
    expect(services.sources.get(digest)).toBeUndefined();
  });
});
