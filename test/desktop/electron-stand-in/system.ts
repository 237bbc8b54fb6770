import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { config, newId, preventable, requireReady, state } from './state.ts';

const SEAL = Buffer.from('stand-in-sealed:');

export const safeStorage = {
  isEncryptionAvailable: (): boolean => state.ready,
  isAsyncEncryptionAvailable: async (): Promise<boolean> => state.ready,
  getSelectedStorageBackend: (): string => (state.ready ? 'gnome_libsecret' : 'unknown'),
  encryptString(plain: string): Buffer {
    if (!state.ready) throw new Error('Encryption is not available.');
    return Buffer.concat([SEAL, Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)]);
  },
  decryptString(sealed: Buffer): string {
    if (!sealed.subarray(0, SEAL.length).equals(SEAL)) {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.');
    }
    return Buffer.from(sealed.subarray(SEAL.length).map((b) => b ^ 0x5a)).toString('utf8');
  },
  async encryptStringAsync(plain: string): Promise<Buffer> {
    return safeStorage.encryptString(plain);
  },
  async decryptStringAsync(sealed: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    return { result: safeStorage.decryptString(sealed), shouldReEncrypt: false };
  },
};

export const shell = {
  async openExternal(url: string): Promise<void> {
    state.shellCalls.push({ call: 'openExternal', target: url });
  },
  showItemInFolder(path: string): void {
    state.shellCalls.push({ call: 'showItemInFolder', target: path });
  },
  /** Resolves with an error message, or '' when the file opened (Electron's contract). */
  async openPath(path: string): Promise<string> {
    state.shellCalls.push({ call: 'openPath', target: path });
    return existsSync(path) ? '' : `Failed to open path: ${path}`;
  },
  async trashItem(path: string): Promise<void> {
    const trash = join(config().root, 'Trash');
    mkdirSync(trash, { recursive: true });
    try {
      await rename(path, join(trash, `${newId()}-${basename(path)}`));
    } catch {
      throw new Error(`Failed to move item to trash: ${path}`);
    }
    state.shellCalls.push({ call: 'trashItem', target: path });
  },
};

export const dialog = {
  showErrorBox(title: string, content: string): void {
    state.errorBoxes.push({ title, content });
  },
  async showSaveDialog(...args: unknown[]): Promise<{ canceled: boolean; filePath: string }> {
    state.saveDialogs.push(args);
    const answer = state.saveDialogAnswer;
    return answer === null
      ? { canceled: true, filePath: '' }
      : { canceled: false, filePath: answer };
  },
  async showOpenDialog(): Promise<{ canceled: boolean; filePaths: string[] }> {
    return { canceled: true, filePaths: [] };
  },
  async showMessageBox(): Promise<{ response: number; checkboxChecked: boolean }> {
    return { response: 0, checkboxChecked: false };
  },
};

interface MenuItemOptions {
  role?: string;
  label?: string;
  type?: string;
  submenu?: MenuItemOptions[] | Menu;
  click?: () => void;
}

export class Menu {
  static buildFromTemplate(template: MenuItemOptions[]): Menu {
    return new Menu(template);
  }

  static setApplicationMenu(menu: Menu | null): void {
    state.applicationMenu = menu;
  }

  static getApplicationMenu(): Menu | null {
    return state.applicationMenu as Menu | null;
  }

  readonly items: MenuItemOptions[];

  constructor(template: MenuItemOptions[] = []) {
    const check = (items: MenuItemOptions[]) => {
      for (const item of items) {
        // Electron's own refusal, word for word
        if (item.role === undefined && item.label === undefined && item.type === undefined) {
          throw new Error(
            'Invalid template for MenuItem: must have at least one of label, role or type',
          );
        }
        if (Array.isArray(item.submenu)) check(item.submenu);
      }
    };
    check(template);
    this.items = template;
  }
}

export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return true;
  }

  readonly title: string;
  readonly body: string;

  constructor(options: { title?: string; body?: string } = {}) {
    super();
    this.title = options.title ?? '';
    this.body = options.body ?? '';
  }

  show(): void {
    state.notifications.push({ title: this.title, body: this.body });
    this.emit('show', preventable());
  }

  close(): void {
    this.emit('close', preventable());
  }
}

const PRIMARY_DISPLAY = {
  id: 1,
  scaleFactor: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1040 },
};

export const screen = {
  getPrimaryDisplay() {
    requireReady("The 'screen' module");
    return PRIMARY_DISPLAY;
  },
  getAllDisplays() {
    requireReady("The 'screen' module");
    return [PRIMARY_DISPLAY];
  },
  getDisplayMatching(_rect: { x: number; y: number; width: number; height: number }) {
    requireReady("The 'screen' module");
    return PRIMARY_DISPLAY;
  },
  getDisplayNearestPoint(_point: { x: number; y: number }) {
    requireReady("The 'screen' module");
    return PRIMARY_DISPLAY;
  },
};
