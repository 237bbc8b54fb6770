// Types of compile-cache.js, which stays plain JavaScript (see there).
import type { Stats } from 'node:fs';

export function compileCacheFolder(
  env: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
  home?: string,
): string | null;
export function codeCacheFolder(
  env: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
  home?: string,
): string | null;
export function privateFolder(folder: string): string | null;
export function isPrivateFolder(folder: string): boolean;
export function ownedAlone(stats: Stats): boolean;
export function enableCompileCache(env?: NodeJS.ProcessEnv): string | null;
