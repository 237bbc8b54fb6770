import { EventEmitter } from 'node:events';
import { cloneForIpc, state } from './state.ts';
import type { IpcMainEvent, IpcMainInvokeEvent } from './windows.ts';

/** Electron's `ipcMain`: one handler a channel, as Electron insists. */
class IpcMain extends EventEmitter {
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    if (state.ipcHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    state.ipcHandlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    state.ipcHandlers.delete(channel);
  }
}

export const ipcMain = new IpcMain();

/** A renderer's `ipcRenderer.invoke`, as Electron carries it. */
export async function invokeMain(
  channel: string,
  event: IpcMainInvokeEvent,
  args: unknown[],
): Promise<unknown> {
  const cloned = cloneForIpc(args); // the renderer serializes them before sending
  const handler = state.ipcHandlers.get(channel);
  if (!handler) throw new Error(`No handler registered for '${channel}'`);
  let result: unknown;
  try {
    result = await handler(event, ...cloned);
  } catch (error) {
    throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, {
      cause: error,
    });
  }
  try {
    return structuredClone(result);
  } catch (error) {
    throw new Error(
      `Error invoking remote method '${channel}': Error: An object could not be cloned.`,
      { cause: error },
    );
  }
}

/** A renderer's `ipcRenderer.send`: cloned now, delivered on a later turn. */
export function sendToMain(channel: string, event: IpcMainEvent, args: unknown[]): void {
  const cloned = cloneForIpc(args);
  setImmediate(() => ipcMain.emit(channel, event, ...cloned));
}
