/**
 * Why an image (or a sidecar, manifest row, thumbnail) could not be written. The engine stores
 * `kind` with the job so it can tell a download worth retrying from a full disk or a bad image.
 */
export type LibraryWriteErrorKind =
  | 'truncated' // the body ended before the image did (or before Content-Length)
  | 'corrupt' // the bytes are not a well-formed image of their format
  | 'wrong-format' // a well-formed image, but not the format the target path expects
  | 'wrong-size' // decodable, but not the width x height that was asked for
  | 'target-exists' // a different file already sits at the target path
  | 'disk-full'
  | 'unwritable' // permissions, read-only volume, a path component that is not a folder
  | 'network' // the download failed mid-body
  | 'stalled' // no data arrived for the idle time: the download was given up, for another try
  | 'too-large' // more bytes than the limit for one file: not fetched further
  | 'too-many-pixels' // a header claiming more pixels than the limit: not usable
  | 'aborted'
  | 'io'; // any other file-system failure (the disk's: it stops the queue too)

export class LibraryWriteError extends Error {
  readonly kind: LibraryWriteErrorKind;
  /** The format actually found, when `kind` is 'wrong-format' and it is a known one. */
  readonly detectedFormat: string | undefined;

  constructor(
    kind: LibraryWriteErrorKind,
    message: string,
    options?: { cause?: unknown; detectedFormat?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LibraryWriteError';
    this.kind = kind;
    this.detectedFormat = options?.detectedFormat;
  }

  /** What the engine stores: plain data, no stack. */
  toJSON(): { kind: LibraryWriteErrorKind; message: string } {
    return { kind: this.kind, message: this.message };
  }
}

export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a file-system error into a LibraryWriteError whose message says what failed and what
 * the user can do. `action` reads like "write the image" and `path` is the file or folder.
 */
export function fromFsError(error: unknown, action: string, path: string): LibraryWriteError {
  if (error instanceof LibraryWriteError) return error;
  const code = errnoCode(error) ?? 'unknown error';
  const cause = { cause: error };
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new LibraryWriteError(
        'disk-full',
        `Could not ${action} at ${path}: the disk is full (${code}). ` +
          'Free some space or choose another library folder, then retry the downloads.',
        cause,
      );
    case 'EROFS':
      return new LibraryWriteError(
        'unwritable',
        `Could not ${action} at ${path}: the volume is read-only (${code}). ` +
          'Make it writable again (remount it), or choose another library folder.',
        cause,
      );
    case 'ENOENT':
      return new LibraryWriteError(
        'unwritable',
        `Could not ${action} at ${path}: a folder on the way is missing and could not be ` +
          `created (${code}); was a drive unmounted or a folder removed? Restore it, or ` +
          'choose another library folder.',
        cause,
      );
    case 'EACCES':
    case 'EPERM':
      return new LibraryWriteError(
        'unwritable',
        `Could not ${action} at ${path}: the folder is not writable (${code}). ` +
          'Check its permissions, or that the volume is not read-only, then retry the downloads.',
        cause,
      );
    case 'ENOTDIR':
    case 'EISDIR':
    case 'EEXIST':
      return new LibraryWriteError(
        'unwritable',
        `Could not ${action} at ${path}: part of the path is a file where a folder is needed, ` +
          `or the reverse (${code}). Move that file away or choose another library folder.`,
        cause,
      );
    case 'ELOOP':
      return new LibraryWriteError(
        'unwritable',
        `Could not ${action} at ${path}: it is a link, and Atelier never writes through one ` +
          `(${code}): it could lead out of the library. Remove the link, then retry.`,
        cause,
      );
    case 'ENAMETOOLONG':
      return new LibraryWriteError(
        'unwritable',
        `Could not ${action} at ${path}: the path is too long for this file system. ` +
          'Choose a shorter library folder or naming template.',
        cause,
      );
    default:
      return new LibraryWriteError(
        'io',
        `Could not ${action} at ${path}: ${(error as Error | null)?.message ?? code}. ` +
          'Check the disk and retry the downloads.',
        cause,
      );
  }
}
