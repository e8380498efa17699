import type { RenderedObject } from '../rules/objects.js';
import type { CheckedChart } from './chart/check-chart.js';
import type { DroppedFields } from '../specs/bookkeeping.js';

/**
 * A checked chart in its wire form: plain data, as a worker posts it (src/render/chart-pool.ts) and the chart store
 * keeps it (src/render/chart-store.ts); not a stage of a chart, since {@link fromWire} makes it the
 * {@link CheckedChart} again. The one function of a checked chart, the file header of an object, is carried as its
 * value per spec file (it depends on nothing else), and rebuilt on arrival.
 */
export interface WireForm {
  readonly errors: CheckedChart['errors'];
  readonly built?: {
    readonly objects: RenderedObject[];
    /** Spec file (`source.file`, `''` for an object with none) → its header. */
    readonly headers: [string, string][];
    readonly namespace?: string;
    readonly adoptsFrom?: readonly string[];
    readonly dropped?: readonly DroppedFields[];
    readonly notes?: NonNullable<CheckedChart['built']>['notes'];
  };
}

/** A checked chart as plain data. Pure. */
export function toWire(c: CheckedChart): WireForm {
  if (c.built === undefined) return { errors: c.errors };
  const { objects, header, namespace, adoptsFrom, dropped, notes } = c.built;
  const headers = new Map<string, string>();
  for (const o of objects) {
    const file = o.source?.file ?? '';
    if (!headers.has(file)) headers.set(file, header(o));
  }
  return {
    errors: c.errors,
    built: {
      objects,
      headers: [...headers],
      ...(namespace === undefined ? {} : { namespace }),
      ...(adoptsFrom === undefined ? {} : { adoptsFrom }),
      ...(dropped === undefined ? {} : { dropped }),
      ...(notes === undefined ? {} : { notes }),
    },
  };
}

/** The checked chart of `input` back from plain data. Pure. */
export function fromWire(input: CheckedChart['input'], w: WireForm): CheckedChart {
  if (w.built === undefined) return { input, errors: w.errors };
  const headers = new Map(w.built.headers);
  const { objects, namespace, adoptsFrom, dropped, notes } = w.built;
  return {
    input,
    errors: w.errors,
    built: {
      objects,
      header: (o) => headers.get(o.source?.file ?? '') ?? '',
      ...(namespace === undefined ? {} : { namespace }),
      ...(adoptsFrom === undefined ? {} : { adoptsFrom }),
      ...(dropped === undefined ? {} : { dropped }),
      ...(notes === undefined ? {} : { notes }),
    },
  };
}
