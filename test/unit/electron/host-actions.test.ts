import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserWindow,
  dialog,
  mockState,
  resetElectronMock,
  shell,
} from '../../support/electron-mock.ts';
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

  it('moves each path to the trash in order, and stops at the first the system refuses', async () => {
    shell.trashItem.mockImplementation(async (path: string) => {
      if (path.endsWith('.json')) throw new Error('Operation not permitted');
    });
    await desktopHostActions().trash!(['/l/.thumbs/a.png.webp', '/l/a.png']);
    expect(shell.trashItem.mock.calls.map(([path]) => path)).toEqual([
      '/l/.thumbs/a.png.webp',
      '/l/a.png',
    ]);
    shell.trashItem.mockClear();
    await expect(
      desktopHostActions().trash!(['/l/.thumbs/b.png.webp', '/l/b.json', '/l/b.png']),
    ).rejects.toThrow('The system could not move /l/b.json to the trash: Operation not permitted');
    expect(shell.trashItem.mock.calls.map(([path]) => path)).toEqual([
      '/l/.thumbs/b.png.webp',
      '/l/b.json',
    ]);
    shell.trashItem.mockImplementation(async () => {});
  });

  it('asks where to save an export, modal to the window, suggesting the downloads folder', async () => {
    mockState.paths.downloads = '/home/me/Downloads';
    const win = new BrowserWindow();
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: '/tmp/mine.zip' });
    const chosen = await desktopHostActions(() => win as never).chooseExportPath!('a.zip');
    expect(chosen).toBe('/tmp/mine.zip');
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(
      win,
      expect.objectContaining({
        defaultPath: '/home/me/Downloads/a.zip',
        filters: [{ name: 'Zip archive', extensions: ['zip'] }],
      }),
    );
  });

  it('answers null when the person closes the save dialog', async () => {
    mockState.paths.downloads = '/home/me/Downloads';
    expect(await desktopHostActions().chooseExportPath!('a.zip')).toBeNull();
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(
      expect.objectContaining({ title: 'Export images' }),
    );
  });
});
