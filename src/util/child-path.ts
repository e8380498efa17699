/**
 * `path.join(dir, rel)` for a normalized `dir` and a relative path `rel` made of directory entry names (no `.`,
 * `..` or empty segment): the same string, without `join`'s normalizing pass. Walks of 100,000 files call it once a
 * file: `join` costs about 0.1 s there and leaves each path a tree of a dozen string pieces in memory. Pure.
 */
export function childPath(dir: string, rel: string): string {
  return dir.endsWith('/') ? `${dir}${rel}` : `${dir}/${rel}`;
}
