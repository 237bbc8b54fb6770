import { describe, expect, it } from 'vitest';
import { openQueueAction } from '../../../renderer/src/frame/FinishedToasts.tsx';
import { pausedText } from '../../../renderer/src/frame/StatusBar.tsx';
import { screenOf } from '../../../renderer/src/frame/navigation.ts';
import { queueStatus } from '../../../renderer/src/frame/queue-status.ts';
import { queueState } from './fake-api.ts';
import { SHORTCUTS } from '../../../renderer/src/frame/shortcuts.ts';
import { windowTitle } from '../../../renderer/src/frame/window-title.ts';

describe('the frame', () => {
  it('reads the screen from the address, Compose when it names none', () => {
    expect(screenOf('#/queue')).toBe('queue');
    expect(screenOf('#/settings?tab=key')).toBe('settings');
    expect(screenOf('')).toBe('compose');
    expect(screenOf('#/nowhere')).toBe('compose');
  });

  it('shows the queue in the window title while work is left', () => {
    const overall = {
      done: 1200,
      failed: 0,
      canceled: 34,
      settled: 1234,
      total: 20000,
      jobsPerSecond: 10,
    };
    expect(windowTitle('running', overall)).toBe('Atelier — 1,234 / 20,000 (6 %)');
    expect(windowTitle('paused', overall)).toBe('Atelier — Paused');
    expect(windowTitle('running', { ...overall, settled: 20000 })).toBe('Atelier');
    expect(windowTitle('loading', null)).toBe('Atelier');
  });

  it('lists every shortcut once, with a label and what it does', () => {
    const keys = SHORTCUTS.map((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const shortcut of SHORTCUTS) expect(shortcut.what.length).toBeGreaterThan(5);
    expect(keys).toContain('mod+enter');
  });
  it('says why the queue paused without saying "Paused" twice', () => {
    expect(pausedText({ reason: 'The gateway refused the key.' })).toBe(
      'Paused: The gateway refused the key.',
    );
    expect(pausedText({ reason: 'Paused by you' })).toBe('Paused by you');
    expect(pausedText(null)).toBeNull();
  });
});

describe('openQueueAction', () => {
  it('offers the Queue from every screen but the Queue itself', () => {
    expect(openQueueAction('#/gallery')?.label).toBe('Open queue');
    expect(openQueueAction('')?.label).toBe('Open queue');
    expect(openQueueAction('#/queue')).toBeUndefined();
    expect(openQueueAction('#/queue?batch=3')).toBeUndefined();
  });
});

describe('queueStatus', () => {
  it('is running only while something is left to send or download, idle otherwise', () => {
    expect(queueStatus(undefined)).toBe('loading');
    expect(queueStatus(queueState(3))).toBe('running');
    expect(queueStatus(queueState(0))).toBe('idle');
    const downloading = queueState(0);
    downloading.progress.downloads.pending = 1;
    expect(queueStatus(downloading)).toBe('running');
    expect(queueStatus({ ...queueState(3), engine: 'stopped' })).toBe('stopped');
    const paused = { reason: 'Paused by you.', code: null, kind: 'manual' as const };
    expect(queueStatus({ ...queueState(3), paused })).toBe('paused');
  });

  it('is unknown while cut off from the service, whatever was last known', () => {
    expect(queueStatus(queueState(3), 'lost')).toBe('unknown');
    expect(queueStatus(queueState(0), 'closed')).toBe('unknown');
    expect(queueStatus(undefined, 'lost')).toBe('loading');
    expect(queueStatus(queueState(3), 'connecting')).toBe('running');
  });
});
