import { describe, expect, it, vi } from 'vitest';
import { ThumbnailLoader } from '../../../renderer/src/api/thumbnail-loader.ts';

/** A bundle route over a little library: path → bytes; '?' for a thumbnail not made yet. */
function bundleRoute(library: Record<string, string>) {
  const asked: string[][] = [];
  const fetch = vi.fn(async (url: string | URL | Request) => {
    const parsed = new URL(String(url), 'http://127.0.0.1');
    expect(parsed.pathname).toBe('/thumb-bundle');
    const paths = parsed.searchParams.getAll('p');
    asked.push(paths);
    const sizes = paths.map((p) => {
      const bytes = library[p];
      return bytes === undefined ? '-' : bytes === '?' ? '?' : String(bytes.length);
    });
    const body = paths.map((p) => (library[p] === '?' ? '' : (library[p] ?? ''))).join('');
    return new Response(body, { headers: { 'X-Thumbnail-Sizes': sizes.join(',') } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, asked };
}

/** Runs the loader's sends when told, as the next microtask would. */
function manualSchedule() {
  const sends: Array<() => void> = [];
  return { schedule: (send: () => void) => void sends.push(send), flush: () => sends.shift()?.() };
}

describe('ThumbnailLoader', () => {
  it('asks for every thumbnail of one moment in one request, and answers each its own bytes', async () => {
    const route = bundleRoute({ 'a/1.png': 'one', 'a/2%20b.png': 'second', 'c.png': 'c' });
    const timing = manualSchedule();
    const loader = new ThumbnailLoader({ fetch: route.fetch, schedule: timing.schedule });
    const loads = ['a/1.png', 'a/2 b.png', 'c.png'].map((p) => loader.load(p));
    expect(route.asked).toEqual([]);
    timing.flush();
    const blobs = await Promise.all(loads);
    expect(await Promise.all(blobs.map((b) => b.text()))).toEqual(['one', 'second', 'c']);
    // each path as after /thumbs/: its segments percent-encoded
    expect(route.asked).toEqual([['a/1.png', 'a/2%20b.png', 'c.png']]);
  });

  it('fetches a thumbnail asked for twice while in flight once, and keeps recent ones', async () => {
    const library = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${i}.png`, `${i}`]));
    const route = bundleRoute(library);
    const loader = new ThumbnailLoader({ fetch: route.fetch });
    const [first, second] = [loader.load('0.png'), loader.load('0.png')];
    expect(second).toBe(first);
    expect(await (await first).text()).toBe('0');
    // a tile scrolled back into view: drawn from the kept bundle, not asked again
    expect(await (await loader.load('0.png')).text()).toBe('0');
    expect(route.asked).toEqual([['0.png']]);
    // 24 bundles later it is forgotten (each kept slice holds its whole bundle)
    for (let i = 1; i <= 24; i++) await loader.load(`${i}.png`);
    await loader.load('0.png');
    expect(route.asked.at(-1)).toEqual(['0.png']);
    expect(route.asked).toHaveLength(26);
  });

  it('never answers a newer image at a reused path with the older one’s thumbnail', async () => {
    const library: Record<string, string> = { 'cats/0001.png': 'old cat' };
    const route = bundleRoute(library);
    const loader = new ThumbnailLoader({ fetch: route.fetch });
    expect(await (await loader.load('cats/0001.png', '26.a')).text()).toBe('old cat');
    // the batch deleted, made again under its name: the same path, another image
    library['cats/0001.png'] = 'new cat';
    expect(await (await loader.load('cats/0001.png', '27.b')).text()).toBe('new cat');
    expect(await (await loader.load('cats/0001.png', '26.a')).text()).toBe('old cat');
    expect(route.asked).toEqual([['cats/0001.png'], ['cats/0001.png']]);
  });

  it('sends the headers it is given (the session) and no cookie', async () => {
    const route = bundleRoute({ 'a.png': 'a' });
    const loader = new ThumbnailLoader({
      fetch: route.fetch,
      headers: () => ({ authorization: 'Bearer abc' }),
    });
    await loader.load('a.png');
    const init = (route.fetch as unknown as ReturnType<typeof vi.fn>).mock.calls[0]![1];
    expect(init).toEqual({ headers: { authorization: 'Bearer abc' }, credentials: 'omit' });
  });

  it('refuses a path no URL can carry, and sends the others', async () => {
    const route = bundleRoute({ 'ok.png': 'ok' });
    const loader = new ThumbnailLoader({ fetch: route.fetch });
    const broken = loader.load('bad\ud800.png');
    const fine = loader.load('ok.png');
    await expect(broken).rejects.toThrow('cannot be put in a URL');
    expect(await (await fine).text()).toBe('ok');
    expect(route.asked).toEqual([['ok.png']]);
  });

  it('refuses the ones the bundle does not carry, and still answers the rest', async () => {
    const route = bundleRoute({ 'made.png': 'made', 'not-made.png': '?' });
    const loader = new ThumbnailLoader({ fetch: route.fetch });
    const [made, notMade, gone] = ['made.png', 'not-made.png', 'gone.png'].map((p) =>
      loader.load(p).then(
        (b) => b.text(),
        (e: Error) => e.message,
      ),
    );
    expect(await made).toBe('made');
    expect(await notMade).toBe('The thumbnail of not-made.png is not made yet.');
    expect(await gone).toBe('No image at gone.png in the library.');
  });

  it('splits more than a bundle holds into several requests', async () => {
    const library = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`${i}.png`, `${i}`]));
    const route = bundleRoute(library);
    const loader = new ThumbnailLoader({ fetch: route.fetch });
    const texts = await Promise.all(
      Object.keys(library).map((p) => loader.load(p).then((b) => b.text())),
    );
    expect(texts).toEqual(Object.values(library));
    expect(route.asked.map((paths) => paths.length)).toEqual([100, 50]);
  });

  it('keeps each request line short however long the paths are', async () => {
    const long = (i: number) => `${'é'.repeat(60)}/${'x'.repeat(40)}-${i}.png`;
    const library = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        long(i).split('/').map(encodeURIComponent).join('/'),
        `${i}`,
      ]),
    );
    const route = bundleRoute(library);
    const urls: string[] = [];
    const fetch = vi.fn(async (url: string | URL | Request) => {
      urls.push(String(url));
      return route.fetch(url);
    }) as unknown as typeof globalThis.fetch;
    const loader = new ThumbnailLoader({ fetch });
    const texts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => loader.load(long(i)).then((b) => b.text())),
    );
    expect(texts).toEqual(Object.values(library));
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) expect(url.length).toBeLessThan(6100);
  });

  it.each([
    ['a failed request', () => new Response('no', { status: 500 }), 'HTTP 500'],
    ['no sizes', () => new Response('abc'), 'garbled'],
    ['sizes that do not add up', () => sized('abc', '1,1'), 'garbled'],
    ['sizes for fewer paths', () => sized('ab', '2'), 'garbled'],
  ])('refuses every thumbnail of the bundle on %s', async (_, answer, message) => {
    const fetch = vi.fn(async () => answer()) as unknown as typeof globalThis.fetch;
    const loader = new ThumbnailLoader({ fetch });
    const results = await Promise.allSettled([loader.load('a.png'), loader.load('b.png')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason.message).toContain(message);
    }
  });

  it('refuses when the host cannot be reached', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    await expect(new ThumbnailLoader({ fetch }).load('a.png')).rejects.toThrow('Failed to fetch');
  });
});

function sized(body: string, sizes: string): Response {
  return new Response(body, { headers: { 'X-Thumbnail-Sizes': sizes } });
}
