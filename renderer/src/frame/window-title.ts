import { useEffect, useRef } from 'react';
import { useQueueState } from '../data/app-queries.ts';
import { overallOf, queueStatus, type Overall, type QueueStatus } from './queue-status.ts';

/** Writing document.title is costly in Chromium (the browser is told): at most once this often. */
const TITLE_MS = 1000;
// the system's locale, as toLocaleString() uses, made once rather than per call
const NUMBER = new Intl.NumberFormat();

/** "Atelier — 1,234 / 20,000 (6 %)" while work is left, "Paused" when paused: seen from the taskbar. */
export function windowTitle(status: QueueStatus, overall: Overall | null): string {
  if (status === 'paused') return 'Atelier — Paused';
  if (!overall || overall.settled >= overall.total) return 'Atelier';
  const percent = Math.floor((overall.settled / Math.max(overall.total, 1)) * 100);
  return `Atelier — ${NUMBER.format(overall.settled)} / ${NUMBER.format(overall.total)} (${percent} %)`;
}

/**
 * Keeps the window's title; a component of its own so that the progress it follows re-renders
 * it alone, not the frame and every screen under it. (A throttle of what is written, not a
 * poll: nothing is asked of the service.)
 */
export function WindowTitle(): null {
  const { data: queue } = useQueueState();
  const status = queueStatus(queue);
  const overall = overallOf(queue?.progress);
  const title = windowTitle(status, overall);
  const counting = status !== 'paused' && overall !== null && overall.settled < overall.total;
  const lastWrite = useRef(-Infinity);
  useEffect(() => {
    const write = () => {
      lastWrite.current = Date.now();
      document.title = title;
    };
    // only the running count waits: "Paused" and the end show at once
    const wait = counting ? lastWrite.current + TITLE_MS - Date.now() : 0;
    if (wait <= 0) return void write();
    const timer = setTimeout(write, wait);
    return () => clearTimeout(timer);
  }, [title, counting]);
  return null;
}
