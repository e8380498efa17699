import { topOf } from './output-tally.js';

/** How one file of a render compares with dist/. */
export type Status = 'added' | 'changed' | 'same';

const STATUSES: readonly Status[] = ['added', 'changed', 'same'];

/** A top-level directory's files: their paths and a status code each (an index into {@link STATUSES}). */
interface DirFiles {
  readonly paths: string[];
  readonly codes: number[];
}

/** A directory's files once the next directory began: their paths as one text (joined by NUL, in no path). */
interface Packed {
  readonly paths: string;
  readonly codes: Uint8Array;
}

/**
 * The files of a render compared with dist/ so far (src/output/dist-comparison.ts), by top-level directory, each
 * with its status. A render gives a directory's files together, so a directory is packed once the next one begins:
 * one text of its paths and a byte a file, where a map of every path and an array of them per directory held each
 * path as a string of its own (5.6 MB of them in a heap snapshot at 100,000 specs) to the end of the render.
 */
export class ComparedFiles {
  private readonly packed = new Map<string, Packed>();
  private current: { readonly dir: string; readonly files: DirFiles } | undefined;
  /** The paths of the directory {@link has} was last asked about. */
  private known: { readonly dir: string; readonly paths: ReadonlySet<string> } | undefined;

  /** One file compared. */
  add(path: string, status: Status): void {
    const dir = topOf(path);
    if (this.current?.dir !== dir) {
      this.pack();
      this.current = { dir, files: this.take(dir) ?? { paths: [], codes: [] } };
    }
    this.current.files.paths.push(path);
    this.current.files.codes.push(STATUSES.indexOf(status));
    this.known = undefined;
  }

  /** Forgets the files of `dir`; their paths. */
  remove(dir: string): string[] {
    this.known = undefined;
    if (this.current?.dir === dir) {
      const { paths } = this.current.files;
      this.current = undefined;
      return paths;
    }
    return this.take(dir)?.paths ?? [];
  }

  /** The paths with status `which`. */
  paths(which: Status): string[] {
    const code = STATUSES.indexOf(which);
    const out: string[] = [];
    const all = [
      ...[...this.packed.values()].map(unpack),
      ...(this.current === undefined ? [] : [this.current.files]),
    ];
    for (const { paths, codes } of all)
      paths.forEach((path, i) => {
        if (codes[i] === code) out.push(path);
      });
    return out;
  }

  /** Whether `path` was compared: cheap when asked of one directory's paths in a row (as dist/'s listing gives them). */
  has(path: string): boolean {
    const dir = topOf(path);
    if (this.known?.dir !== dir) this.known = { dir, paths: new Set(this.filesOf(dir)?.paths ?? []) };
    return this.known.paths.has(path);
  }

  private filesOf(dir: string): DirFiles | undefined {
    if (this.current?.dir === dir) return this.current.files;
    const packed = this.packed.get(dir);
    return packed === undefined ? undefined : unpack(packed);
  }

  /** The files of `dir`, packed before, as arrays; no longer packed. */
  private take(dir: string): DirFiles | undefined {
    const packed = this.packed.get(dir);
    this.packed.delete(dir);
    return packed === undefined ? undefined : unpack(packed);
  }

  /** Packs the directory being compared. */
  private pack(): void {
    if (this.current === undefined) return;
    const { dir, files } = this.current;
    this.packed.set(dir, { paths: files.paths.join('\0'), codes: Uint8Array.from(files.codes) });
    this.current = undefined;
  }
}

function unpack({ paths, codes }: Packed): DirFiles {
  return { paths: codes.length === 0 ? [] : paths.split('\0'), codes: [...codes] };
}
