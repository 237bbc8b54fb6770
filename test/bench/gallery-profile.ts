/** A CPU profile as CDP's Profiler.stop gives it (the fields read here). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    parent?: number;
    children?: number[];
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)', '(root)']);

/**
 * The functions that took the most time, by self time and by total time (itself and what it
 * called), as lines `12.3 ms self  45.6 ms total  name  file:line`, busiest first; with the
 * bundle's source map, file:line is the source's.
 */
export function summarizeProfile(
  profile: CpuProfile,
  top: number,
  sourceMap: SourceMapLookup | null = null,
): string[] {
  const { byId, parent } = profileTree(profile);
  const keyOf = (id: number) => {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    const file = url
      ? (sourceMap?.find(lineNumber + 1, columnNumber + 1) ??
        `${url.slice(url.lastIndexOf('/') + 1)}:${lineNumber + 1}:${columnNumber + 1}`)
      : '';
    return `${functionName || '(anonymous)'}  ${file}`.trim();
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const key = keyOf(id);
    if (IDLE.has(byId.get(id)!.callFrame.functionName)) return;
    busy += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf(at);
      if (seen.has(k) || IDLE.has(byId.get(at)!.callFrame.functionName)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const lines = [`busy ${busy.toFixed(0)} ms (idle and the profiler's own time left out)`];
  const row = (k: string) =>
    `${(self.get(k) ?? 0).toFixed(1).padStart(7)} ms self ` +
    `${(total.get(k) ?? 0).toFixed(1).padStart(7)} ms total  ${k}`;
  lines.push('by self time:');
  for (const [k] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${row(k)}`);
  lines.push('by total time:');
  for (const [k] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${row(k)}`);
  return lines;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map (version 3) read enough to turn a bundle's line and column into a source's. */
export class SourceMapLookup {
  private readonly sources: string[];
  /** Per generated line: [column, source, line, column] segments, by column. */
  private readonly lines: number[][][] = [];

  constructor(map: { sources: string[]; mappings: string }) {
    this.sources = map.sources;
    const state = [0, 0, 0, 0];
    for (const line of map.mappings.split(';')) {
      state[0] = 0;
      const segments: number[][] = [];
      for (const segment of line.split(',')) {
        if (!segment) continue;
        const fields = decodeVlq(segment);
        for (let i = 0; i < Math.min(4, fields.length); i++) state[i]! += fields[i]!;
        if (fields.length >= 4) segments.push([...state]);
      }
      this.lines.push(segments);
    }
  }

  /** `source:line` for a 1-based bundle line and column, or null. */
  find(line: number, column: number): string | null {
    const segments = this.lines[line - 1];
    if (!segments?.length) return null;
    let best = segments[0]!;
    for (const segment of segments) if (segment[0]! <= column - 1) best = segment;
    // from the project's own folders on: renderer/src/…, node_modules/…
    const source = this.sources[best[1]!]!.replace(/^.*?(?=renderer\/src\/|node_modules\/)/, '');
    return `${source}:${best[2]! + 1}`;
  }
}

function decodeVlq(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** A Chromium trace event (the fields read here); times in µs. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Time the thread actually ran (CPU), when the trace has it. */
  tdur?: number;
  args?: { name?: string };
}

/**
 * What a trace says about a stretch of frames: CPU time per thread (the renderer's main
 * thread, its raster workers, the compositor), the main thread's phases, and the main thread's
 * tasks longer than a frame with the CPU they got: a 40 ms task with 4 ms of CPU waited for
 * a core (the machine was busy), one with 40 ms of CPU is the page's own cost.
 */
export function summarizeTrace(events: readonly TraceEvent[], seconds: number): string[] {
  const threads = new Map<string, string>();
  for (const e of events) {
    if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  }
  const thread = (e: TraceEvent) => threads.get(`${e.pid}:${e.tid}`) ?? '?';
  const cpu = (e: TraceEvent) => (e.tdur ?? 0) / 1000;
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined);
  // per thread, the CPU of the outermost events (nested ones are inside their parent's)
  const perThread = new Map<string, number>();
  const ends = new Map<string, number>();
  for (const e of [...complete].sort((a, b) => a.ts - b.ts)) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ts < (ends.get(key) ?? -1)) continue;
    ends.set(key, e.ts + e.dur!);
    const name = thread(e);
    perThread.set(name, (perThread.get(name) ?? 0) + cpu(e));
  }
  const share = (ms: number) => `${((ms / (seconds * 1000)) * 100).toFixed(0)} %`;
  const lines = ['CPU by thread (share of one core):'];
  for (const [name, ms] of [...perThread].sort((a, b) => b[1] - a[1]).slice(0, 6)) {
    lines.push(`  ${share(ms).padStart(5)}  ${name}`);
  }
  const phases = [
    ['EventDispatch', 'events (scroll: the virtualizer renders)'],
    ['FunctionCall', 'scripts called by the browser'],
    ['FireAnimationFrame', 'animation frames (the bench scrolls here)'],
    ['UpdateLayoutTree', 'style'],
    ['Layout', 'layout'],
    ['PrePaint', 'pre-paint'],
    ['Paint', 'paint'],
    ['ResponseBodyLoader::OnStateChange', 'responses arriving'],
    ['MajorGC', 'major GC'],
    ['MinorGC', 'minor GC'],
  ] as const;
  lines.push('main thread phases (CPU, nested ones counted in each):');
  for (const [name, label] of phases) {
    const ms = complete
      .filter((e) => e.name === name && thread(e) === 'CrRendererMain')
      .reduce((sum, e) => sum + cpu(e), 0);
    lines.push(`  ${share(ms).padStart(5)}  ${label}`);
  }
  const long = complete.filter(
    (e) => e.name === 'RunTask' && thread(e) === 'CrRendererMain' && e.dur! > 20_000,
  );
  const starved = long.filter((e) => cpu(e) < e.dur! / 1000 / 2).length;
  lines.push(
    `main-thread tasks over 20 ms: ${long.length}; of them ${starved} got less than half their ` +
      `time on a core (waited for the CPU)` +
      (long.length
        ? `; CPU of the longest ones: ${long
            .sort((a, b) => b.dur! - a.dur!)
            .slice(0, 6)
            .map((e) => `${(e.dur! / 1000).toFixed(0)} ms wall/${cpu(e).toFixed(0)} ms CPU`)
            .join(', ')}`
        : ''),
  );
  return lines;
}

/**
 * The profile's stretches of at least `minMs` of uninterrupted work (no idle sample between:
 * a long task, or tasks back to back), each as one line: when, how long, the functions that
 * took most of it themselves, and the project's own functions it ran inside (with the
 * bundle's source map: `renderer/src/…`).
 */
export function profileTasks(
  profile: CpuProfile & { startTime?: number },
  minMs: number,
  top: number,
  sourceMap: SourceMapLookup | null = null,
): string[] {
  const { byId, parent } = profileTree(profile);
  const names = new Map<number, { name: string; own: boolean }>();
  const nameOf = (id: number) => {
    let known = names.get(id);
    if (!known) {
      const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
      const where = url
        ? (sourceMap?.find(lineNumber + 1, columnNumber + 1) ??
          `${url.slice(url.lastIndexOf('/') + 1)}:${lineNumber + 1}`)
        : '';
      known = {
        name: `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`,
        own: where.startsWith('renderer/src/'),
      };
      names.set(id, known);
    }
    return known;
  };
  const lines: string[] = [];
  let at = 0;
  let stretch: Array<{ id: number; dt: number }> = [];
  let stretchAt = 0;
  const close = () => {
    const ms = stretch.reduce((sum, s) => sum + s.dt, 0);
    if (ms >= minMs) {
      const self = new Map<string, number>();
      const inside = new Map<string, number>();
      for (const { id, dt } of stretch) {
        const own = nameOf(id).name;
        self.set(own, (self.get(own) ?? 0) + dt);
        const seen = new Set<string>();
        for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
          const n = nameOf(node);
          if (!n.own || seen.has(n.name)) continue;
          seen.add(n.name);
          inside.set(n.name, (inside.get(n.name) ?? 0) + dt);
        }
      }
      const list = (m: Map<string, number>) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([name, t]) => `${t.toFixed(0)} ms ${name}`)
          .join('; ');
      lines.push(
        `at ${(stretchAt / 1000).toFixed(1)} s, ${ms.toFixed(0)} ms. Itself: ${list(self)}. ` +
          `Inside: ${list(inside) || 'none of the project’s functions'}`,
      );
    }
    stretch = [];
  };
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    at += (profile.timeDeltas[i] ?? 0) / 1000;
    if (byId.get(id)!.callFrame.functionName === '(idle)') {
      close();
      return;
    }
    if (stretch.length === 0) stretchAt = at;
    stretch.push({ id, dt });
  });
  close();
  return lines;
}

/** A profile's nodes by id, and each node's parent. */
function profileTree(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  return { byId, parent };
}
