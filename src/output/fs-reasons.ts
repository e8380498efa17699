/**
 * Why a file-system call failed, as words a user reads in an error sentence: one table for every writer in
 * `src/output/`. Pure.
 */
const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file',
  EISDIR: 'a directory is in the way',
  EEXIST: 'a file is in the way of the directory',
  ELOOP: 'a link is in the way (specforge never follows one)',
  ENAMETOOLONG: 'a file name is longer than the file system allows',
};

/** The reason for `e`'s errno code, or undefined when it is not a failure of the place written to (a bug). */
export function fsReason(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? undefined : REASONS[code];
}
