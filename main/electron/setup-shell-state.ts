import { join } from 'node:path';
import { app } from 'electron';
import ElectronStore from 'electron-store';
import { z } from 'zod';
import { WindowStateSchema, type WindowState, type WindowStateStore } from './window-state.ts';

export const SHELL_STATE_NAME = 'shell';

const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

/** What only the desktop shell keeps: none of it is a setting of the data folder. */
const ShellStateSchema = z.object({
  /** Where the window was, to open there again. */
  window: WindowStateSchema.nullable().catch(null),
  /** The data folder last opened: `<userData>/data` until another is chosen. */
  dataDir: z.string().min(1).nullable().catch(null),
  /** The theme the data folder's settings said last, for the window before its first paint. */
  theme: Theme.catch('system'),
});
type ShellStateValue = z.infer<typeof ShellStateSchema>;

/** The two backgrounds of the renderer's `--bg`: the window shows them before the page paints. */
const BACKGROUNDS = { light: '#f6f6f7', dark: '#131418' } as const;

export interface ShellState {
  /** The window's place between runs. */
  readonly window: WindowStateStore;
  /** The data folder to open (the last one), `<userData>/data` at first. */
  dataDir(): string;
  rememberDataDir(dataDir: string): void;
  /** The window's background before the page paints, for the last theme chosen; undefined: the system's. */
  background(): string | undefined;
  rememberTheme(theme: Theme): void;
}

/**
 * The desktop shell's own state, in electron-store (`<userData>/shell.json`): the window's
 * place, the last data folder and the theme before the first paint. Losing it costs nothing,
 * so a file that cannot be read starts again from the defaults. The settings of the data
 * folder are not here: they are the core's (`<data>/settings.json`), shared with the CLI and
 * `atelier ui`.
 */
export function setupShellState(): ShellState {
  const userData = app.getPath('userData');
  const file = new ElectronStore<Record<string, unknown>>({
    name: SHELL_STATE_NAME,
    cwd: userData,
    clearInvalidConfig: true,
  });
  const read = (): ShellStateValue =>
    ShellStateSchema.parse({ window: null, dataDir: null, theme: 'system', ...file.store });
  const write = (patch: Partial<ShellStateValue>) => {
    file.store = ShellStateSchema.parse({ ...read(), ...patch });
  };
  return {
    window: {
      load: () => read().window,
      save: (state: WindowState) => write({ window: WindowStateSchema.parse(state) }),
    },
    dataDir: () => read().dataDir ?? join(userData, 'data'),
    rememberDataDir: (dataDir) => write({ dataDir }),
    background: () => {
      const theme = read().theme;
      return theme === 'system' ? undefined : BACKGROUNDS[theme];
    },
    rememberTheme: (theme) => {
      if (read().theme !== theme) write({ theme });
    },
  };
}
