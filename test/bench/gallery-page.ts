/**
 * What the gallery benchmark runs inside the page, installed before the app's first script as
 * `window.__bench`. Text, not code: this folder is type-checked as Node code, without the DOM.
 * Every time is performance.now(), whose zero is the navigation's start.
 *
 * It finds the grid by role and name (`grid` "Images"), its tiles by role (`gridcell`), a
 * tile's thumbnail as its <canvas> (drawn once it has `data-thumb`) or <img>, the grid's scroll
 * container as the nearest element (the grid or an ancestor) that scrolls, and the match count
 * as the `status` inside the gallery.
 */
export const GALLERY_PAGE_SCRIPT = /* js */ `(() => {
  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push({ at: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  // React's commits (when each ended), told by the hook its devtools use (production builds too)
  const commits = [];
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberRoot() { commits.push(performance.now()); },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
  };
  // when the search box last changed (typing, pasting) and when Enter last committed it
  const marks = { input: 0, enter: 0 };
  document.addEventListener('input', () => { marks.input = performance.now(); }, true);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') marks.enter = performance.now();
  }, true);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const nameOf = (el) => {
    const label = el.getAttribute('aria-label');
    if (label) return label.trim();
    const ids = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' ');
  };
  const grid = () =>
    [...document.querySelectorAll('[role="grid"]')].find((g) => nameOf(g) === 'Images') ?? null;
  const scroller = (g) => {
    for (let el = g; el; el = el.parentElement) {
      const y = getComputedStyle(el).overflowY;
      if ((y === 'auto' || y === 'scroll') && el.scrollHeight > el.clientHeight) return el;
    }
    return document.scrollingElement;
  };
  /** The tiles at least partly inside the scroll container's box. */
  const visibleCells = (g) => {
    const view = scroller(g).getBoundingClientRect();
    const top = Math.max(view.top, 0);
    const bottom = Math.min(view.bottom, innerHeight);
    return [...g.querySelectorAll('[role="gridcell"]')].filter((cell) => {
      const r = cell.getBoundingClientRect();
      return r.width > 0 && r.bottom > top && r.top < bottom;
    });
  };
  // a thumbnail drawn into a canvas names its path in data-thumb once drawn; an <img>, its URL
  const decoded = (media) => media.tagName === 'CANVAS'
    ? Boolean(media.dataset.thumb)
    : media.complete && media.naturalWidth > 0;
  const thumbPath = (media) => {
    if (media.tagName === 'CANVAS') return media.dataset.thumb;
    const path = decodeURIComponent(new URL(media.currentSrc || media.src, location.href).pathname);
    return path.replace(/^\\/(thumbs|media)\\//, '');
  };
  /**
   * What the visible tiles show: tiles, thumbnails decoded, thumbnails pending, and tiles
   * without an image (a failed download's tile, or one whose details have not come yet).
   */
  const screen = (g) => {
    const cells = visibleCells(g);
    let shown = 0, pending = 0, bare = 0;
    const paths = [];
    for (const cell of cells) {
      const media = cell.querySelector('canvas, img');
      if (!media) { bare++; continue; }
      if (decoded(media)) { shown++; paths.push(thumbPath(media)); } else pending++;
    }
    return { cells: cells.length, shown, pending, bare, paths };
  };
  const statusText = () => {
    const g = grid();
    const region = g?.closest('section, main, [role="region"]') ?? document;
    return [...region.querySelectorAll('[role="status"]')].map((s) => s.textContent).join(' | ');
  };
  /** Polls every frame until test() returns a value, or the time is up (then null). */
  const until = async (test, ms) => {
    const end = performance.now() + ms;
    for (;;) {
      const t = await frame();
      const value = test(t);
      if (value) return value;
      if (performance.now() > end) return null;
    }
  };

  /** What the page fetched from 'at' until 'to' (null: until now): [name, start, end] in ms. */
  const fetchedBetween = (at, to) => performance
    .getEntriesByType('resource')
    .filter((r) => r.startTime >= at && (to === null || r.startTime <= to))
    .map((r) => [
      // a bundle's name says how many thumbnails it carried
      (new URL(r.name).pathname === '/thumb-bundle'
        ? '/thumb-bundle(' + new URL(r.name).searchParams.getAll('p').length + ')'
        : new URL(r.name).pathname)
        .replace(/^\\/thumbs\\/.*/, 'thumb')
        .replace(/^\\/thumb-bundle/, 'bundle')
        .replace(/^\\/assets\\/(\\w+)-.*\\.(\\w+)$/, '$1.$2')
        .replace(/^\\/api\\//, ''),
      Math.round(r.startTime - at),
      Math.round(r.responseEnd - at),
    ]);

  window.__bench = {
    /** When React's commits ended (ms from the navigation's start), those until 'to'. */
    commits: (to) => commits.filter((t) => to === null || t <= to).map(Math.round),
    /** What the page fetched from its navigation's start until 'to' ms. */
    loaded: (to) => fetchedBetween(0, to),
    longTasks: () => longTasks.slice(),
    screen: () => { const g = grid(); return g ? screen(g) : null; },
    status: statusText,
    /**
     * From the navigation's start: the first tile with its thumbnail decoded, and the first
     * frame where every visible tile has one (tiles without an image count once the screen has
     * no thumbnail pending and no more than 'bareAllowed' of them).
     */
    async firstPaint(bareAllowed) {
      let first = null;
      const full = await until(() => {
        const g = grid();
        if (!g) return null;
        const s = screen(g);
        const now = performance.now();
        if (s.shown > 0 && first === null) first = now;
        if (s.shown > 0 && s.pending === 0 && s.bare <= bareAllowed) return { at: now, ...s };
        return null;
      }, 20000);
      return { first, full: full?.at ?? null, cells: full?.cells ?? 0, bare: full?.bare ?? 0 };
    },
    /** Waits until the visible tiles show their thumbnails (or ms pass); true if they did. */
    async settle(bareAllowed, ms) {
      return Boolean(await until(() => {
        const s = screen(grid());
        return s.shown > 0 && s.pending === 0 && s.bare <= bareAllowed;
      }, ms));
    },
    /** Frame intervals for ms with nothing happening: what the machine allows right now. */
    async idleFrames(ms) {
      const intervals = [];
      let prev = await frame();
      const start = prev;
      while (prev - start < ms) {
        const t = await frame();
        intervals.push(t - prev);
        prev = t;
      }
      return intervals;
    },
    /**
     * Scrolls the grid from the top at pxPerS for ms, its position a function of time (a
     * missed frame jumps further, as a fling does). Records every frame's interval, the long
     * tasks, and every 30th frame how many visible tiles showed a thumbnail.
     */
    async scrollFast(pxPerS, ms) {
      const el = scroller(grid());
      el.scrollTop = 0;
      await frame(); await frame();
      const intervals = [];
      const samples = [];
      let prev = await frame();
      const start = prev;
      let n = 0;
      for (;;) {
        const t = await frame();
        intervals.push(t - prev);
        prev = t;
        if (++n % 30 === 0) {
          const s = screen(grid());
          samples.push(s.cells ? s.shown / s.cells : 0);
        }
        if (t - start >= ms) break;
        el.scrollTop = ((t - start) / 1000) * pxPerS;
      }
      const tasks = longTasks.filter((task) => task.at >= start && task.at < prev);
      return { intervals, tasks, samples, scrolled: el.scrollTop, height: el.scrollHeight };
    },
    /**
     * Top to bottom, one screen at a time (nine tenths of it), each step waiting until its
     * tiles show their thumbnails or waitMs pass: every image's tile and thumbnail is made.
     */
    async scrollThrough(bareAllowed, waitMs, maxSteps = Infinity, maxMs = Infinity) {
      const el = scroller(grid());
      el.scrollTop = 0;
      let steps = 0, timedOut = 0;
      const started = performance.now();
      for (;;) {
        const ok = await until(() => {
          const s = screen(grid());
          return s.shown > 0 && s.pending === 0 && s.bare <= bareAllowed;
        }, waitMs);
        if (!ok) timedOut++;
        steps++;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2 || steps >= maxSteps) break;
        if (performance.now() - started > maxMs) break;
        el.scrollTop += Math.floor(el.clientHeight * 0.9);
      }
      return {
        steps,
        timedOut,
        ms: performance.now() - started,
        height: el.scrollHeight,
        reached: el.scrollTop + el.clientHeight,
      };
    },
    /**
     * From the mark ('input': the box changed; 'enter': Enter pressed) after 'since': when
     * the status first shows 'count', and when every visible tile first shows a decoded
     * thumbnail from 'allowed' (library paths).
     */
    async watchSearch(mark, count, allowed, since) {
      const set = new Set(allowed);
      const number = new RegExp('(^|[^\\\\d,.])' + count.toLocaleString('en-US') + '(?![\\\\d,.])');
      let counted = null;
      const shown = await until(() => {
        if (marks[mark] <= since) return null;
        const now = performance.now();
        if (counted === null && number.test(statusText())) counted = now;
        const s = screen(grid());
        const onlyMatches =
          s.shown > 0 && s.pending === 0 && s.bare === 0 && s.paths.every((p) => set.has(p));
        return counted !== null && onlyMatches ? now : null;
      }, 10000);
      const at = marks[mark];
      const fetched = fetchedBetween(at, shown);
      return {
        counted: counted === null ? null : counted - at,
        shown: shown === null ? null : shown - at,
        fetched,
        screen: screen(grid()),
        status: statusText(),
      };
    },
    mark: (name) => marks[name],
  };
})();`;
