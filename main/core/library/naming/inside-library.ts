import nodePath from 'node:path';

/**
 * The absolute path of a library-relative path, or an error when it would land outside the
 * library (absolute, "..", a drive or a NUL). The last check before anything is written.
 */
export function resolveInsideLibrary(
  libraryRoot: string,
  relPath: string,
  path: typeof nodePath.posix = nodePath,
): string {
  const refuse = (why: string): never => {
    throw new Error(
      `Refusing to write "${relPath}": ${why}. Files are only written inside the library ` +
        `(${libraryRoot}); check the file name template.`,
    );
  };
  if (relPath === '' || relPath.includes('\0')) refuse('the path is empty or contains NUL');
  if (path.isAbsolute(relPath) || /^[A-Za-z]:/.test(relPath)) refuse('the path is absolute');
  const root = path.resolve(libraryRoot);
  const target = path.resolve(root, relPath);
  // Both are normalized absolute paths, so "inside" is a prefix test (cheaper than
  // path.relative, which resolves both again). Stricter than it on Windows: a path that leaves
  // and re-enters the library in another case is refused.
  const inside = root.endsWith(path.sep) ? root : root + path.sep;
  if (target.length <= inside.length || !target.startsWith(inside)) {
    refuse('it points outside the library');
  }
  return target;
}
