import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { digestOf } from '../output/digest.js';
import type { RenderInputs } from '../output/provenance.js';
import type { ChartInput, SpecChartInput } from './types.js';

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

/** The inputs of a render: every chart's digest (a chart module's file read here), and `gitops.yaml`'s text. */
export function renderInputs(inputs: readonly ChartInput[], gitopsText: string | undefined): RenderInputs {
  const charts = inputs.map((input) => ({
    name: input.name,
    digest: chartInputDigest(input, moduleBytes(input)),
  }));
  return { charts, ...(gitopsText === undefined ? {} : { gitops: digestOf([gitopsText]) }) };
}

/** The bytes of a chart's module file, as they are now (empty when it can no longer be read). */
function moduleBytes(input: ChartInput): { name: string; bytes: Uint8Array } | undefined {
  if (input.moduleFile === undefined) return undefined;
  try {
    return { name: basename(input.moduleFile), bytes: readFileSync(input.moduleFile) };
  } catch {
    return { name: basename(input.moduleFile), bytes: new Uint8Array() };
  }
}
