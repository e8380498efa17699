import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { digestOf } from '../../output/digest.js';
import type { RenderInputs } from '../../output/provenance.js';
import { importedFiles, type ImportedFile } from '../module/module-graph.js';
import { moduleReads } from '../module/module-reads.js';
import { type ChartInput } from '../chart/chart-input.js';

/**
 * The digests of a render's inputs, for its provenance (src/output/provenance.ts) and for telling that a chart read
 * twice is the same (src/render/source/load-charts.ts): a chart's settings and spec files by their paths in the charts
 * directory, its chart module's own file, the local modules it imports (src/render/module/module-graph.ts) and the files it
 * read while it ran (src/render/module/module-reads.ts), and `gitops.yaml`. Every input is digested with its line ends
 * normalised, CRLF as LF (and so a lone CR stays), so a checkout whose files Git wrote with CRLF
 * (`core.autocrlf=true`, Git for Windows' default) has the provenance of an LF clone: YAML reads both as the same
 * documents, and a module runs the same.
 */

/**
 * A chart module's files: its own (`name`, in the chart directory), those it imports and those it read as it ran, by
 * path.
 */
export interface ModuleFiles {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly imports?: readonly ImportedFile[];
  readonly reads?: readonly ImportedFile[];
}

/** The digest of one chart's inputs; `module`, the files of its chart module when it has one. Pure. */
export function chartInputDigest(input: ChartInput, module?: ModuleFiles): string {
  const parts: (string | Uint8Array)[] = [input.name];
  if (input.settings !== undefined) parts.push(`${input.name}/chart.yaml`, lf(input.settings.text));
  for (const f of input.specFiles) parts.push(f.relative, lf(f.text));
  if (module !== undefined) parts.push(`${input.name}/${module.name}`, lfBytes(module.bytes));
  for (const f of module?.imports ?? []) parts.push(`import ${f.path}`, lfBytes(f.bytes));
  for (const f of module?.reads ?? []) parts.push(`read ${f.path}`, lfBytes(f.bytes));
  return digestOf(parts);
}

/** The digest of a chart's inputs as they are now: its files, and its chart module's files when it has one. */
export function digestOfInput(input: ChartInput): string {
  return chartInputDigest(input, moduleBytes(input));
}

/** A text with its CRLF line ends as LF. Pure. */
export function lf(text: string): string {
  return text.includes('\r\n') ? text.replaceAll('\r\n', '\n') : text;
}

/** Bytes with every CR LF pair as LF. Pure. */
export function lfBytes(bytes: Uint8Array): Uint8Array {
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('\r\n')) return bytes;
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) continue;
    out[n++] = bytes[i] as number;
  }
  return out.subarray(0, n);
}

/**
 * The inputs of a render: every chart's digest (a chart module's file read here, or, for a chart the render read,
 * when it read it: src/render/source/chart-source.ts), and `gitops.yaml`'s text.
 */
export function renderInputs(
  inputs: readonly (ChartInput | Read)[],
  gitopsText: string | undefined,
): RenderInputs {
  const charts = inputs.map((input) => ({ name: input.name, digest: digestOfEntry(input) }));
  return { charts, ...(gitopsText === undefined ? {} : { gitops: digestOf([lf(gitopsText)]) }) };
}

/** A chart the render read (src/render/source/chart-source.ts): its name and the digest of what it read. */
interface Read {
  readonly name: string;
  readonly digest: string | undefined;
}

/**
 * A chart's digest: of a chart read before the render, its inputs now; of a chart the render read, its inputs as it
 * read them (src/render/source/chart-source.ts).
 */
function digestOfEntry(entry: ChartInput | Read): string {
  if ('specFiles' in entry) return digestOfInput(entry);
  if (entry.digest === undefined) throw new Error(`internal error: chart ${entry.name} was never read`);
  return entry.digest;
}

/**
 * The files of a chart's module as they are now: its own bytes (empty when it can no longer be read), the local
 * modules it imports (src/render/module/module-graph.ts), and the files it was seen reading in this thread
 * (src/render/module/module-reads.ts): taken after the module ran, so that they are known.
 */
export function moduleBytes(input: ChartInput): ModuleFiles | undefined {
  if (input.moduleFile === undefined) return undefined;
  const name = basename(input.moduleFile);
  const chartsDir = dirname(input.dir);
  const imports = importedFiles(input.moduleFile, chartsDir);
  const reads = moduleReads(input.moduleFile, chartsDir, imports);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(input.moduleFile);
  } catch {
    bytes = new Uint8Array();
  }
  return {
    name,
    bytes,
    ...(imports.length === 0 ? {} : { imports }),
    ...(reads.length === 0 ? {} : { reads }),
  };
}
