import { join } from 'node:path';
import { app, dialog, shell, type BrowserWindow } from 'electron';
import { AppError } from '../core/app/app-error.ts';
import type { HostActions } from '../core/app/host.ts';

/**
 * What only the desktop can do with a library file, and the save dialog of exports. The
 * service resolves the path (inside the library) before it calls these; `window` makes the
 * dialog modal to the app's window when there is one.
 */
export function desktopHostActions(window: () => BrowserWindow | null = () => null): HostActions {
  return {
    async reveal(absolutePath) {
      shell.showItemInFolder(absolutePath);
    },
    async openWithViewer(absolutePath) {
      // Electron answers with an error message, or '' when the file opened
      const failure = await shell.openPath(absolutePath);
      if (failure) {
        throw new AppError(
          'unsupported',
          `The system could not open ${absolutePath} with its viewer: ${failure}`,
        );
      }
    },
    async trash(paths) {
      // one at a time, in the order given (the image last): a failure leaves the image whole
      for (const path of paths) {
        try {
          await shell.trashItem(path);
        } catch (error) {
          throw new Error(
            `The system could not move ${path} to the trash: ${(error as Error).message}`,
            { cause: error },
          );
        }
      }
    },
    async chooseExportPath(suggestedName) {
      const options: Electron.SaveDialogOptions = {
        title: 'Export images',
        defaultPath: join(app.getPath('downloads'), suggestedName),
        filters: [{ name: 'Zip archive', extensions: ['zip'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const parent = window();
      const result = parent
        ? await dialog.showSaveDialog(parent, options)
        : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
  };
}
