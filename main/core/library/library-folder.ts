import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { errnoCode, makeFolderSync, tempPathIn } from './library-fs.ts';

/** What keeps a folder from taking files, in words that follow "it …", and what to do. */
export interface FolderProblem {
  code: string;
  problem: string;
  remedy: string;
}

/**
 * Whether files can be written in `dir` (created when missing): it exists or can be created,
 * is a folder, and a file can be created, written and removed in it. Null when it can.
 * Blocking: a few system calls, once per run.
 */
export function folderProblem(dir: string): FolderProblem | null {
  try {
    makeFolderSync(dir);
    if (!statSync(dir).isDirectory()) return describe('ENOTDIR');
    const probe = tempPathIn(dir);
    const fd = openSync(probe, 'wx');
    try {
      writeSync(fd, 'atelier');
    } finally {
      closeSync(fd);
      unlinkSync(probe);
    }
    return null;
  } catch (error) {
    return describe(errnoCode(error) ?? 'EIO', (error as Error).message);
  }
}

function describe(code: string, message?: string): FolderProblem {
  switch (code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return {
        code,
        problem: 'is a file, or a folder on its path is a file, where a folder is needed',
        remedy: 'Move that file away, or choose another folder',
      };
    case 'EROFS':
      return {
        code,
        problem: 'is on a read-only volume',
        remedy: 'Make the volume writable (remount it), or choose another folder',
      };
    case 'EACCES':
    case 'EPERM':
      return {
        code,
        problem: 'is not writable by this user',
        remedy: 'Change its permissions, or choose another folder',
      };
    case 'ENOSPC':
    case 'EDQUOT':
      return {
        code,
        problem: 'is on a disk that is full',
        remedy: 'Free some space on it, or choose another folder',
      };
    case 'ENAMETOOLONG':
      return { code, problem: 'has a path too long', remedy: 'Choose a shorter path' };
    default:
      return {
        code,
        problem: `cannot be written (${message ?? code})`,
        remedy: 'Check the disk, or choose another folder',
      };
  }
}

/** The library folder cannot take images: refused before any request is sent. */
export class LibraryFolderError extends Error {
  readonly folder: string;
  readonly problem: FolderProblem;

  constructor(folder: string, problem: FolderProblem) {
    super(
      `The library folder ${folder} ${problem.problem} (${problem.code}), so no image could ` +
        `be saved there. ${problem.remedy.replace(/another folder$/, 'another library folder')}.`,
    );
    this.name = 'LibraryFolderError';
    this.folder = folder;
    this.problem = problem;
  }
}

/** Throws a LibraryFolderError unless images can be written in `dir` (see folderProblem). */
export function checkLibraryFolder(dir: string): void {
  const problem = folderProblem(dir);
  if (problem) throw new LibraryFolderError(dir, problem);
}
