import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockState, Notification, resetElectronMock } from '../../support/electron-mock.ts';
import type { ApiEvent, ApiEventOf, EventBatch } from '../../../shared/api/events.ts';
import type { EventListener } from '../../../shared/api/types.ts';
import { Settings } from '../../../shared/api/schemas/settings.ts';
import type { SettingsStore } from '../../../main/core/app/settings-store.ts';
import { setupNotifications } from '../../../main/electron/setup-notifications.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

type Finished = ApiEventOf<'batch.finished'>['payload'];
const jobs = { queued: 0, running: 0, retrying: 0, succeeded: 0, failed: 0, canceled: 0 };
const downloads = { pending: 0, downloading: 0, done: 0, failed: 0 };

function finished(patch: Partial<Finished> = {}): Finished {
  return { batchId: 1, name: 'Spring', jobs, failures: {}, downloads, partial: 0, ...patch };
}

describe('setupNotifications', () => {
  let listener: EventListener;
  let settings: Pick<SettingsStore, 'read'> & { current: ReturnType<typeof Settings.parse> };
  const events = {
    subscribe: vi.fn((_cursor: string | null, l: EventListener) => {
      listener = l;
      return vi.fn();
    }),
  };
  const deliver = (...list: ApiEvent[]) => listener({ cursor: 'c', events: list } as EventBatch);
  const finishedEvent = (name: string): ApiEvent => ({
    type: 'batch.finished',
    payload: finished({ name, jobs: { ...jobs, succeeded: 3 } }),
  });

  beforeEach(() => {
    resetElectronMock();
    settings = {
      current: Settings.parse({}),
      read: () => settings.current,
    };
  });

  it('shows one notification per finished batch, from now on', () => {
    setupNotifications({ events, settings });
    expect(events.subscribe).toHaveBeenCalledWith(null, expect.any(Function));
    deliver({ type: 'queue.resumed', payload: {} }, finishedEvent('A'), finishedEvent('B'));
    expect(Notification.instances.map((n) => n.options)).toEqual([
      { title: 'Batch “A” finished', body: '3 done' },
      { title: 'Batch “B” finished', body: '3 done' },
    ]);
    for (const n of Notification.instances) expect(n.show).toHaveBeenCalled();
  });

  it('shows nothing when the person turned them off', () => {
    setupNotifications({ events, settings });
    settings.current = { ...settings.current, notifications: { batchFinished: false } };
    deliver(finishedEvent('A'));
    expect(Notification.instances).toHaveLength(0);
  });

  it('shows nothing where the system has no notifications', () => {
    mockState.notificationsSupported = false;
    setupNotifications({ events, settings });
    deliver(finishedEvent('A'));
    expect(Notification.instances).toHaveLength(0);
  });

  it('brings the window back on click', () => {
    const onClick = vi.fn();
    setupNotifications({ events, settings, onClick });
    deliver(finishedEvent('A'));
    Notification.instances[0]!.emit('click');
    expect(onClick).toHaveBeenCalled();
  });
});
