import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real disks that fail: small tmpfs mounts, filled up or made read-only. Root ignores file
 * permission bits, so a read-only volume is the only honest "not writable" for root. Mounting
 * needs root (CI and this project's development machine run as root); elsewhere the tests
 * that need it are skipped, and say so.
 */
export const canMount = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'atelier-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('mount', ['-o', 'remount,ro', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

/** A test's title, saying why it is skipped where mounting is refused. */
export function mountTitle(title: string): string {
  return canMount ? title : `${title} [skipped: mounting a tmpfs needs root]`;
}

const mounted = new Set<string>();

/** Mounts a tmpfs of `size` (e.g. "1m") at `dir`, created when missing. */
export function mountTmpfs(dir: string, size: string, options: { readOnly?: boolean } = {}) {
  mkdirSync(dir, { recursive: true });
  const flags = `size=${size}${options.readOnly ? ',ro' : ''}`;
  execFileSync('mount', ['-t', 'tmpfs', '-o', flags, 'tmpfs', dir]);
  mounted.add(dir);
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, dir]);
}

/** Lazily: a process may still hold files open in it. */
export function unmountAll(): void {
  for (const dir of mounted) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {
      // already unmounted
    }
  }
  mounted.clear();
}

/** Writes a filler file in `dir` until its disk is full; returns the filler's path. */
export function fillDisk(dir: string): string {
  const filler = join(dir, 'filler.bin');
  const fd = openSync(filler, 'a');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return filler;
}
