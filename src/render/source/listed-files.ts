import { childPath } from '../../util/child-path.js';
import type { YamlPath } from './chart-tree.js';

/** A YAML file of a listed chart: its path as shown in messages, in the chart directory, and its real path. */
export interface ListedFile {
  readonly file: string;
  readonly rel: string;
  readonly real: string;
}

/**
 * A chart's YAML files as its listing holds them until the chart is read (src/render/source/load-charts.ts): their paths
 * in the chart as one text, and a real path only where a link makes it other than the chart's real path and that
 * path. A render lists every chart before it reads the first, and three paths an object per file were 20 MB at
 * 100,000 specs, held while the first charts were built.
 */
export class ListedFiles {
  readonly count: number;
  /** The paths in the chart, joined by NUL, which no file name holds. */
  private readonly rels: string;
  /** The real path of each file whose real path is not the chart's real path joined with its path, by position. */
  private readonly links = new Map<number, string>();

  constructor(
    private readonly dir: string,
    private readonly real: string,
    files: readonly YamlPath[],
  ) {
    this.count = files.length;
    this.rels = files.map((f) => f.rel).join('\0');
    files.forEach((f, i) => {
      if (f.real !== childPath(real, f.rel)) this.links.set(i, f.real);
    });
  }

  /** The files, in the listing's order. */
  unpack(): ListedFile[] {
    if (this.count === 0) return [];
    return this.rels.split('\0').map((rel, i) => ({
      file: childPath(this.dir, rel),
      rel,
      real: this.links.get(i) ?? childPath(this.real, rel),
    }));
  }
}
