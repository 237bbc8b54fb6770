/** The gallery's days filter: a few common ranges, else the two days a person chose. */
export type DayPreset = 'any' | 'today' | 'week' | 'month' | 'custom';

/** How many days back (today included) each preset reaches. */
const PRESET_DAYS = { today: 1, week: 7, month: 30 } as const;

export const DAY_PRESET_LABELS: Record<DayPreset, string> = {
  any: 'Any day',
  today: 'Today',
  week: 'Past 7 days',
  month: 'Past 30 days',
  custom: 'Choose days…',
};

/** A local day as the date inputs write it: YYYY-MM-DD. */
export function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** The first day a preset shows, counted back from `today` (null: every day). */
export function presetRange(
  preset: DayPreset,
  today: Date,
): { from: string | null; to: string | null } {
  if (preset === 'any' || preset === 'custom') return { from: null, to: null };
  const first = new Date(today);
  first.setDate(first.getDate() - (PRESET_DAYS[preset] - 1));
  return { from: localDay(first), to: null };
}

/** Which preset a view's days are, or `custom` when they are days of the person's own. */
export function presetOf(
  range: { from: string | null; to: string | null },
  today: Date,
): DayPreset {
  if (range.from === null && range.to === null) return 'any';
  for (const preset of ['today', 'week', 'month'] as const) {
    if (range.to === null && presetRange(preset, today).from === range.from) return preset;
  }
  return 'custom';
}
