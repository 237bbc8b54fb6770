import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { Logger } from '../core/logger.ts';
import { openExternalHttps } from './setup-security.ts';

export interface HelpLink {
  label: string;
  url: string;
}

/**
 * The Help menu's links; each opens in the browser (https only). The gateway speaks the
 * OpenAI image API, so its reference explains every parameter a batch can set.
 */
export const HELP_LINKS: readonly HelpLink[] = [
  {
    label: 'Image API Reference',
    url: 'https://platform.openai.com/docs/api-reference/images',
  },
];

/**
 * The standard menus by role, so every platform's shortcuts (copy, paste, zoom, reload,
 * close, quit) work as people expect; macOS gets its application menu first.
 */
export function menuTemplate(
  platform: NodeJS.Platform,
  links: readonly HelpLink[],
  logger?: Logger,
): MenuItemConstructorOptions[] {
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: links.map(({ label, url }) => ({
        label,
        click: () => openExternalHttps(url, logger),
      })),
    },
  ];
}

export function setupMenu(options: { links?: readonly HelpLink[]; logger?: Logger } = {}): void {
  const template = menuTemplate(process.platform, options.links ?? HELP_LINKS, options.logger);
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
