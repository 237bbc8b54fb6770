import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Menu, resetElectronMock, shell } from '../../support/electron-mock.ts';
import { HELP_LINKS, menuTemplate, setupMenu } from '../../../main/electron/setup-menu.ts';

vi.mock('electron', () => import('../../support/electron-mock.ts'));

const links = [
  { label: 'Docs', url: 'https://docs.example/atelier' },
  { label: 'Bad', url: 'http://plain.example/' },
];

describe('menuTemplate', () => {
  beforeEach(() => resetElectronMock());

  it('has the standard roles, macOS’s application menu first', () => {
    expect(menuTemplate('darwin', links).map((item) => item.role)).toEqual([
      'appMenu',
      'fileMenu',
      'editMenu',
      'viewMenu',
      'windowMenu',
      'help',
    ]);
    expect(menuTemplate('win32', links).map((item) => item.role)).toEqual([
      'fileMenu',
      'editMenu',
      'viewMenu',
      'windowMenu',
      'help',
    ]);
  });

  it('opens help links in the browser, https only', () => {
    const help = menuTemplate('linux', links).at(-1)!;
    const items = help.submenu as Array<{ label: string; click: () => void }>;
    expect(items.map((item) => item.label)).toEqual(['Docs', 'Bad']);
    for (const item of items) item.click();
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith('https://docs.example/atelier');
  });

  it('ships https links only', () => {
    for (const { url } of HELP_LINKS) expect(new URL(url).protocol).toBe('https:');
  });

  it('installs the menu as the application menu', () => {
    setupMenu({ links });
    const template = vi.mocked(Menu.buildFromTemplate).mock.calls[0]![0] as Array<{ role: string }>;
    expect(template.map((item) => item.role)).toEqual(
      menuTemplate(process.platform, links).map((item) => item.role),
    );
    const built = vi.mocked(Menu.buildFromTemplate).mock.results[0]!.value;
    expect(Menu.setApplicationMenu).toHaveBeenCalledWith(built);
  });
});
