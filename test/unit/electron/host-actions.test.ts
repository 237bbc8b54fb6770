import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetElectronMock, shell } from '../../support/electron-mock.ts';
import { desktopHostActions } from '../../../main/electron/host-actions.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

describe('desktopHostActions', () => {
  beforeEach(() => resetElectronMock());

  it('reveals a file in the file manager', async () => {
    await desktopHostActions().reveal!('/library/a.png');
    expect(shell.showItemInFolder).toHaveBeenCalledWith('/library/a.png');
  });

  it('opens a file with the system viewer', async () => {
    await desktopHostActions().openWithViewer!('/library/a.png');
    expect(shell.openPath).toHaveBeenCalledWith('/library/a.png');
  });

  it('throws the error Electron answers with instead of passing silently', async () => {
    shell.openPath.mockResolvedValueOnce('No application is associated with this file.');
    await expect(desktopHostActions().openWithViewer!('/library/a.webp')).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('No application is associated with this file.'),
    });
  });
});
