import type { HostActions } from '../core/app/host.ts';

/**
 * What the browser host can do for its page with library files: the machine's trash (the
 * `trash` package: the freedesktop trash on Linux, the system's own on macOS and Windows).
 * Revealing and opening need a desktop session in front of the files, so they stay out.
 */
export function webHostActions(): HostActions {
  return {
    async trash(paths) {
      // loaded on first use: it brings a glob library the host needs for nothing else
      const { default: trash } = await import('trash');
      // names are paths, never patterns: a prompt may well put [brackets] in a file name
      await trash(paths, { glob: false });
    },
  };
}
