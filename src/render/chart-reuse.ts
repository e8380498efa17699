import type { SourceRef } from '../specs/types.js';
import type { CheckedChart } from './chart/check-chart.js';
import { fromWire, toWire } from './chart-wire.js';
import type { ChartInput } from './chart/chart-input.js';

/**
 * The checked charts of one render, kept for another render in the same process (`specforge diff --against`: the
 * revision's charts beside today's) to take as built where a chart's inputs are the same: its name, its settings
 * and its spec files (paths and text). Only charts of spec files that had no error are kept, and a chart taken is
 * renamed to the other render's files (in the sources of its objects and their file headers), so its messages name
 * that render's files. A chart's build depends on nothing but those inputs (src/cache/chart-cache.ts keys the
 * cache on them too); the cross-chart pass (ordering, GitOps objects) runs in each render as always.
 */
export class ChartReuse {
  private readonly kept = new Map<string, CheckedChart>();

  /** Keeps `part` for a later render, when it can be reused. */
  keep(part: CheckedChart): void {
    if (part.errors.length === 0 && part.built !== undefined && part.input.moduleFile === undefined)
      this.kept.set(part.input.name, part);
  }

  /** The chart kept under `input`'s name with the same inputs, renamed to `input`'s files; else undefined. */
  find(input: ChartInput): CheckedChart | undefined {
    const prior = this.kept.get(input.name);
    if (prior === undefined || !sameInputs(prior.input, input)) return undefined;
    return renamedTo(prior, input);
  }
}

/** Whether two charts have the same name, settings and spec files (paths and text); where they live aside. */
export function sameInputs(a: ChartInput, b: ChartInput): boolean {
  if (a.name !== b.name || a.settings?.text !== b.settings?.text) return false;
  if (a.specFiles.length !== b.specFiles.length) return false;
  return a.specFiles.every((f, i) => {
    const g = b.specFiles[i];
    return g !== undefined && f.relative === g.relative && f.text === g.text;
  });
}

/** `part`, built from inputs equal to `input`'s, as if built from `input`'s files. */
function renamedTo(part: CheckedChart, input: ChartInput): CheckedChart {
  const fileOf = new Map(part.input.specFiles.map((f, i) => [f.file, input.specFiles[i]?.file ?? f.file]));
  // A chart's own Namespace (chart.yaml's createNamespace) has the settings file as its source.
  if (part.input.settings !== undefined && input.settings !== undefined)
    fileOf.set(part.input.settings.file, input.settings.file);
  const wire = toWire(part);
  if (wire.built === undefined) return { input, errors: [] };
  const renamed = (s: SourceRef): SourceRef => ({ ...s, file: fileOf.get(s.file) ?? s.file });
  return fromWire(input, {
    errors: [],
    built: {
      ...wire.built,
      objects: wire.built.objects.map((o) =>
        o.source === undefined ? o : { ...o, source: renamed(o.source) },
      ),
      headers: wire.built.headers.map(([file, header]) => [fileOf.get(file) ?? file, header]),
      ...(wire.built.dropped === undefined
        ? {}
        : { dropped: wire.built.dropped.map((d) => ({ ...d, file: fileOf.get(d.file) ?? d.file })) }),
      ...(wire.built.notes === undefined
        ? {}
        : { notes: wire.built.notes.map((n) => ({ ...n, file: fileOf.get(n.file) ?? n.file })) }),
    },
  });
}
