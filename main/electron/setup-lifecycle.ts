import { app } from 'electron';
import type { ServedApp } from '../core/app/host.ts';
import type { Logger } from '../core/logger.ts';

/**
 * Closing the window quits; quitting first closes the service (the engine hands its jobs
 * back, the database checkpoints) and only then lets the process end.
 */
export function setupLifecycle(service: Pick<ServedApp, 'close'>, logger: Logger): void {
  app.on('window-all-closed', () => app.quit());
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    service
      .close()
      .catch((error: unknown) => logger.error('the service did not close cleanly', error))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}
