import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../util/usage-error.js';
import { entryText, listOwnedTree, type OutputUse } from './dist-tree.js';
import { ComparedFiles, type Status } from './compared-files.js';

/** How dist/ differs from a render: paths relative to dist/. */
export interface Drift {
  readonly added: string[];
  readonly removed: string[];
  readonly changed: string[];
}

/**
 * dist/ as it is (nothing when it does not exist), compared file by file with a render as the render's files come:
 * which are new, which changed, which are equal; at the end, which dist/ holds that the render did not make. A
 * top-level directory put again replaces what was compared of it before ({@link retract}). Opening it checks, from
 * names alone, that specforge wrote every entry.
 */
export class Comparison {
  readonly out: string;
  private readonly entries: Map<string, string | undefined>;
  private readonly compared = new ComparedFiles();
  /** What each file found equal was when it was read (inode, size, times), to see that it still is when linked. */
  private readonly stamps = new Map<string, string>();

  constructor(
    readonly outDir: string,
    private readonly use: OutputUse = 'replace',
  ) {
    this.out = resolve(outDir);
    this.entries = listOwnedTree(outDir, this.out, use);
  }

  /** Compares one file of the render; with dist/'s text when it differs from `bytes` and dist/ has the file. */
  compare(path: string, bytes: string): { differs: false } | { differs: true; before?: string } {
    if (!this.entries.has(path)) {
      this.compared.add(path, 'added');
      return { differs: true };
    }
    const stamp = stampOf(join(this.out, path));
    const before = entryText(this.out, path, this.entries.get(path));
    this.compared.add(path, before === bytes ? 'same' : 'changed');
    if (before !== bytes) return { differs: true, before };
    this.stamps.set(path, stamp);
    return { differs: false };
  }

  /**
   * Throws when dist/ is no longer as it was read: an entry added or gone, or a file found equal since changed (a
   * hand edit while the render ran, which no lock keeps out); the render then writes nothing.
   */
  assertUnchanged(): void {
    const now = listOwnedTree(this.outDir, this.out, this.use);
    const moved = (path: string): boolean => this.stamps.get(path) !== stampOf(join(this.out, path));
    const changed =
      [...now.keys()].find((p) => !this.entries.has(p)) ??
      [...this.entries.keys()].find((p) => !now.has(p)) ??
      [...this.stamps.keys()].find(moved);
    if (changed !== undefined)
      throw new UsageError(
        `${join(this.outDir, changed)} changed while specforge was rendering (edited by hand?); ${this.outDir} was left unchanged: run the command again`,
        false,
      );
  }

  /** Forgets what was compared of the top-level directory `dir` (it is put again); the paths it had. */
  retract(dir: string): string[] {
    const paths = this.compared.remove(dir);
    for (const path of paths) this.stamps.delete(path);
    return paths;
  }

  /** The paths compared with the status `which`. */
  paths(which: Status): string[] {
    return this.compared.paths(which);
  }

  /** The text dist/ holds at `path`. */
  textOf(path: string): string {
    return entryText(this.out, path, this.entries.get(path));
  }

  drift(): Drift {
    return {
      added: this.paths('added').sort(),
      removed: [...this.entries.keys()].filter((p) => !this.compared.has(p)).sort(),
      changed: this.paths('changed').sort(),
    };
  }
}

/** What a file is on disk now (inode, size, change times), or that it is not there. */
function stampOf(path: string): string {
  try {
    const st = lstatSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return 'missing';
  }
}
