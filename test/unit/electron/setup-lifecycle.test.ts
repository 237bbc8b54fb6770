import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, resetElectronMock } from '../../support/electron-mock.ts';
import { silentLogger } from '../../../main/core/logger.ts';
import { setupLifecycle } from '../../../main/electron/setup-lifecycle.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

function quitEvent() {
  return { preventDefault: vi.fn() };
}

describe('setupLifecycle', () => {
  beforeEach(() => resetElectronMock());

  it('quits when the window closes', () => {
    setupLifecycle({ close: vi.fn(async () => {}) }, silentLogger);
    app.emit('window-all-closed');
    expect(app.quit).toHaveBeenCalled();
  });

  it('holds the quit until the service has closed, once', async () => {
    let finish!: () => void;
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    setupLifecycle({ close }, silentLogger);
    const first = quitEvent();
    app.emit('before-quit', first);
    const second = quitEvent(); // asked again while closing: still held
    app.emit('before-quit', second);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(second.preventDefault).toHaveBeenCalled();
    expect(close).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    const last = quitEvent();
    app.emit('before-quit', last);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });

  it('still quits when closing fails, and says so', async () => {
    const logger = { ...silentLogger, error: vi.fn() };
    setupLifecycle({ close: vi.fn(async () => Promise.reject(new Error('db locked'))) }, logger);
    app.emit('before-quit', quitEvent());
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
    expect(logger.error).toHaveBeenCalledWith(
      'the service did not close cleanly',
      expect.any(Error),
    );
  });
});
