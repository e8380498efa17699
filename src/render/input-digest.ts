import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { digestOf } from '../output/digest.js';
import type { RenderInputs } from '../output/provenance.js';
import { isSource, type ChartEntry, type ChartInput, type SpecChartInput } from './types.js';

/**
 * The digests of a render's inputs, for its provenance (src/output/provenance.ts): a chart's settings and spec
 * files by their paths in the charts directory, and the bytes of its chart module's own file (what the module
 * imports is not followed: the provenance names the module, it cannot vouch for its imports).
 */

/** The digest of one chart's inputs; `module`, the bytes of its chart module when it has one. Pure. */
export function chartInputDigest(
  input: SpecChartInput,
  module?: { name: string; bytes: Uint8Array },
): string {
  const parts: (string | Uint8Array)[] = [input.name];
  if (input.settings !== undefined) parts.push(`${input.name}/chart.yaml`, input.settings.text);
  for (const f of input.specFiles) parts.push(f.relative, f.text);
  if (module !== undefined) parts.push(`${input.name}/${module.name}`, module.bytes);
  return digestOf(parts);
}

/**
 * The inputs of a render: every chart's digest (a chart module's file read here, or, for a chart the render read,
 * when it read it: src/render/chart-source.ts), and `gitops.yaml`'s text.
 */
export function renderInputs(inputs: readonly ChartEntry[], gitopsText: string | undefined): RenderInputs {
  const charts = inputs.map((input) => ({ name: input.name, digest: digestOfEntry(input) }));
  return { charts, ...(gitopsText === undefined ? {} : { gitops: digestOf([gitopsText]) }) };
}

/**
 * A chart's digest: of a chart read before the render, its inputs now; of a chart the render read, its inputs as it
 * read them (src/render/chart-source.ts).
 */
function digestOfEntry(entry: ChartEntry): string {
  if (!isSource(entry)) return chartInputDigest(entry, moduleBytes(entry));
  if (entry.digest === undefined) throw new Error(`internal error: chart ${entry.name} was never read`);
  return entry.digest;
}

/** The bytes of a chart's module file, as they are now (empty when it can no longer be read). */
export function moduleBytes(input: ChartInput): { name: string; bytes: Uint8Array } | undefined {
  if (input.moduleFile === undefined) return undefined;
  try {
    return { name: basename(input.moduleFile), bytes: readFileSync(input.moduleFile) };
  } catch {
    return { name: basename(input.moduleFile), bytes: new Uint8Array() };
  }
}
