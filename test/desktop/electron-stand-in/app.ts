import { EventEmitter } from 'node:events';
import { isAbsolute } from 'node:path';
import { appPackage, config, preventable, state } from './state.ts';

/** Electron's `app`: ready when the stand-in launches it, quitting as Electron quits. */
class App extends EventEmitter {
  readonly isPackaged = false;

  whenReady(): Promise<void> {
    return state.readyGate.promise;
  }

  isReady(): boolean {
    return state.ready;
  }

  getPath(name: string): string {
    const path = state.paths[name];
    if (path === undefined) throw new Error(`Failed to get '${name}' path`);
    return path;
  }

  setPath(name: string, path: string): void {
    if (!isAbsolute(path)) throw new Error(`Path must be absolute: ${path}`);
    state.paths[name] = path;
  }

  getAppPath(): string {
    return config().appPath;
  }

  getName(): string {
    return appPackage().name;
  }

  getVersion(): string {
    return appPackage().version;
  }

  requestSingleInstanceLock(): boolean {
    state.singleInstanceLock = true;
    return true;
  }

  hasSingleInstanceLock(): boolean {
    return state.singleInstanceLock;
  }

  setAppUserModelId(_id: string): void {}

  /** As Electron: `before-quit` (preventable), the windows closed, `will-quit`, `quit`. */
  quit(): void {
    if (state.quitting || state.exitCode !== null) return;
    const beforeQuit = preventable();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    state.quitting = true;
    setImmediate(() => {
      for (const window of [...state.windows]) window.destroy();
      const willQuit = preventable();
      this.emit('will-quit', willQuit);
      if (willQuit.defaultPrevented) {
        state.quitting = false;
        return;
      }
      this.finish(0);
    });
  }

  /** Quits at once: no `before-quit`, no `will-quit`. */
  exit(code = 0): void {
    for (const window of [...state.windows]) window.destroy();
    this.finish(code);
  }

  private finish(code: number): void {
    if (state.exitCode !== null) return;
    state.exitCode = code;
    this.emit('quit', preventable(), code);
    state.quitGate.open(code);
  }
}

export const app = new App();
