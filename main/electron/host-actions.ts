import { shell } from 'electron';
import { AppError } from '../core/app/app-error.ts';
import type { HostActions } from '../core/app/host.ts';

/**
 * What only the desktop can do with a library file. The service resolves the path (inside
 * the library) before it calls these.
 */
export function desktopHostActions(): HostActions {
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
  };
}
