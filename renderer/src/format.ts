// made once: toLocaleString builds a formatter on every call, a cost paid per row and per event
const WHOLE = new Intl.NumberFormat('en-US');
const MILLIONS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A whole number with thousands separators: 1,234,567. */
export const formatWhole = (n: number): string => WHOLE.format(n);

/** Counts as people read them: 1,234 and 123,456, or 1.2M past a million. */
export function formatCount(n: number): string {
  if (n >= 1_000_000) return `${MILLIONS.format(n / 1_000_000)}M`;
  return WHOLE.format(n);
}

const counted =
  (format: (n: number) => string) =>
  (n: number, one: string, many = `${one}s`): string =>
    `${format(n)} ${n === 1 ? one : many}`;

/** A count of things, exact: 1 job, 1,234,567 jobs (what an action did). */
export const plural = counted(formatWhole);

/** A count of things as people read it at a glance: 1 image, 2,400 images, 1.2M images. */
export const countOf = counted(formatCount);

/**
 * Jobs per minute, whatever the speed: one unit on every screen (a queue at "48.0/min" beside
 * its batch at "1.2/s" read as two different speeds). "4.5/min", "72/min", "9,000/min".
 */
export function formatRate(jobsPerSecond: number): string {
  if (jobsPerSecond <= 0) return '—';
  const perMinute = jobsPerSecond * 60;
  return perMinute < 10
    ? `${perMinute.toFixed(1)}/min`
    : `${formatWhole(Math.round(perMinute))}/min`;
}

/** How long `remaining` jobs take at `jobsPerSecond`: "2 h 05 min", "4 min", "< 1 min". */
export function formatEta(remaining: number, jobsPerSecond: number): string {
  if (remaining <= 0) return 'done';
  if (jobsPerSecond <= 0) return '—';
  const minutes = Math.round(remaining / jobsPerSecond / 60);
  if (minutes < 1) return '< 1 min';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours >= 48) return `${Math.round(hours / 24)} days`;
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A duration between two times in ms: "850 ms", "3.2 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function formatTime(at: number): string {
  return new Date(at).toLocaleTimeString('en-GB', { hour12: false });
}

/** Sizes of files: 900 B, 340 KB, 1.2 MB (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "256x256" as "256 × 256"; any other size as given. */
export function formatSize(size: string): string {
  const match = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/i.exec(size);
  return match ? `${match[1]} × ${match[2]}` : size;
}
