import { app, Notification } from 'electron';
import type { EventSource } from '../../shared/api/types.ts';
import { finishedSummary } from '../../shared/jobs/finished-summary.ts';
import type { SettingsStore } from '../core/app/settings-store.ts';

/** Windows shows notifications only for an app with this id (electron-builder.yml's appId). */
export const APP_USER_MODEL_ID = 'dev.atelier.app';

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
      const { title, detail } = finishedSummary(event.payload);
      const notification = new Notification({ title, body: detail });
      if (options.onClick) notification.on('click', options.onClick);
      notification.show();
    }
  });
}
