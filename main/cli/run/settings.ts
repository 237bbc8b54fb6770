import { resolve } from 'node:path';
import { withoutCredentials } from '../../../shared/gateway/sealed-url.ts';
import { parseTemplate, TemplateError } from '../../core/library/naming.ts';
import { ConfigError, UsageError } from '../command.ts';
import { DEFAULT_LIBRARY_DIR } from '../data-folder.ts';
import type { GatewayChoice, SavedSettings } from './saved-settings.ts';

/** Flags that say how to run the queue; absent ones come from the data folder or defaults. */
export interface SettingsFlags {
  demo?: boolean;
  gateway?: string;
  headers?: Record<string, string>;
  out?: string;
  concurrency?: number;
  requestsPerMinute?: number;
  template?: string;
  sidecar?: boolean;
  manifest?: boolean;
  thumbnails?: boolean;
}

export const DEFAULT_CONCURRENCY = 8;

/**
 * The settings for this run: flags first, then what the data folder saved, then defaults.
 * `cwd` resolves relative folders, so the saved library is absolute.
 */
export function resolveSettings(
  flags: SettingsFlags,
  saved: SavedSettings | null,
  cwd: string,
): SavedSettings {
  const library = resolveLibrary(flags.out, saved, cwd);
  if (flags.template !== undefined) checkTemplate(flags.template);
  return {
    gateway: resolveGateway(flags, saved),
    library,
    concurrency: flags.concurrency ?? saved?.concurrency ?? DEFAULT_CONCURRENCY,
    requestsPerMinute: flags.requestsPerMinute ?? saved?.requestsPerMinute ?? null,
    template: flags.template ?? saved?.template ?? null,
    sidecar: flags.sidecar ?? saved?.sidecar ?? false,
    manifest: flags.manifest ?? saved?.manifest ?? false,
    thumbnails: flags.thumbnails ?? saved?.thumbnails ?? false,
  };
}

function resolveGateway(flags: SettingsFlags, saved: SavedSettings | null): GatewayChoice {
  if (flags.demo && flags.gateway !== undefined) {
    throw new UsageError('give either --demo or --gateway URL, not both.');
  }
  if (flags.demo) {
    if (flags.headers && Object.keys(flags.headers).length > 0) {
      throw new UsageError('--header is for a real gateway (--gateway URL), not --demo.');
    }
    return { kind: 'demo' };
  }
  if (flags.gateway !== undefined) {
    // user:password@ is never sent, saved or printed: the key comes from ATELIER_API_KEY
    const baseUrl = withoutCredentials(flags.gateway);
    return { kind: 'remote', baseUrl, extraHeaders: flags.headers ?? {} };
  }
  if (!saved) {
    throw new UsageError(
      "say where to send the prompts: --gateway URL (your gateway's base address, e.g. " +
        'https://gateway.example.com) or --demo (the embedded simulator, no key needed).',
    );
  }
  if (flags.headers && Object.keys(flags.headers).length > 0) {
    if (saved.gateway.kind === 'demo') {
      throw new UsageError('--header is for a real gateway (--gateway URL), not the demo.');
    }
    return { ...saved.gateway, extraHeaders: flags.headers };
  }
  return saved.gateway;
}

/** One library per data folder: the batches' folders are relative to it. */
function resolveLibrary(out: string | undefined, saved: SavedSettings | null, cwd: string): string {
  if (out === undefined) return saved?.library ?? resolve(cwd, DEFAULT_LIBRARY_DIR);
  const library = resolve(cwd, out);
  if (saved && saved.library !== library) {
    throw new ConfigError(
      `This data folder's images go to ${saved.library}, not ${library}: its unfinished ` +
        'downloads would be split between two libraries. Leave out --out, or use another data ' +
        'folder for another library (--data DIR).',
    );
  }
  return library;
}

function checkTemplate(template: string): void {
  try {
    parseTemplate(template);
  } catch (error) {
    if (error instanceof TemplateError) throw new UsageError(`--template: ${error.message}`);
    throw error;
  }
}
