import { app, Notification } from 'electron';
import type { ApiEventOf } from '../../shared/api/events.ts';
import type { EventSource } from '../../shared/api/types.ts';
import type { SettingsStore } from '../core/app/settings-store.ts';

type Finished = ApiEventOf<'batch.finished'>['payload'];

/** Windows shows notifications only for an app with this id (electron-builder.yml's appId). */
export const APP_USER_MODEL_ID = 'dev.atelier.app';

/**
 * What the notification of a finished batch says: "120 done, 3 failed (2 uncertain)", then
 * what else needs the person (canceled jobs, failed downloads, images a job did not return).
 */
export function finishedNotice(batch: Finished): { title: string; body: string } {
  const parts = [`${batch.jobs.succeeded} done`];
  if (batch.jobs.failed > 0) {
    const uncertain = batch.failures.uncertain ?? 0;
    parts.push(`${batch.jobs.failed} failed${uncertain > 0 ? ` (${uncertain} uncertain)` : ''}`);
  }
  if (batch.jobs.canceled > 0) parts.push(`${batch.jobs.canceled} canceled`);
  if (batch.downloads.failed > 0) {
    parts.push(`${plural(batch.downloads.failed, 'download')} failed`);
  }
  if (batch.partial > 0) parts.push(`${plural(batch.partial, 'image')} missing`);
  return { title: `Batch “${batch.name}” finished`, body: parts.join(', ') };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export interface NotificationOptions {
  events: EventSource;
  /** Whether the person left notifications on (the data folder's settings). */
  settings: Pick<SettingsStore, 'read'>;
  /** A click on the notification: bring the window to the front. */
  onClick?: () => void;
}

/**
 * A system notification when a batch finishes, if the system has them and the person left
 * them on in Settings. Returns what stops listening.
 */
export function setupNotifications(options: NotificationOptions): () => void {
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  return options.events.subscribe(null, (batch) => {
    for (const event of batch.events) {
      if (event.type !== 'batch.finished') continue;
      if (!Notification.isSupported()) return;
      if (!options.settings.read().notifications.batchFinished) return;
      const notification = new Notification(finishedNotice(event.payload));
      if (options.onClick) notification.on('click', options.onClick);
      notification.show();
    }
  });
}
