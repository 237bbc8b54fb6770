import { useEffect } from 'react';
import { selectOverall, selectQueueStatus } from '../store/selectors.ts';
import { useAppStore } from '../store/react.ts';
import { useShallow } from 'zustand/react/shallow';

/** "Atelier — 1,234 / 20,000 (6 %)" while work is left, "Paused" when paused: seen from the taskbar. */
export function windowTitle(
  status: ReturnType<typeof selectQueueStatus>,
  overall: ReturnType<typeof selectOverall>,
): string {
  if (status === 'paused') return 'Atelier — Paused';
  if (!overall || overall.done >= overall.total) return 'Atelier';
  const percent = Math.floor((overall.done / Math.max(overall.total, 1)) * 100);
  return `Atelier — ${overall.done.toLocaleString()} / ${overall.total.toLocaleString()} (${percent} %)`;
}

export function useWindowTitle(): void {
  const status = useAppStore(selectQueueStatus);
  const overall = useAppStore(useShallow(selectOverall));
  const title = windowTitle(status, overall);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
