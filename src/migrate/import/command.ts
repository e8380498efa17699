/**
 * `specforge import`: reads the seed operators' live custom resources (read-only on the cluster) and writes one spec
 * file per resource into a chart, with the adoption pins that let specforge's render take the operator's objects over
 * as they are. Reports, per object the operator made, whether it is adopted, adopted with pins, replaced, created or
 * blocked, where the live objects differ from their resource's spec (what the first sync changes), and the Nodes
 * the seed's and specforge's membership rules disagree on. Exit 0 all adoptable, 1 something blocked or replaced
 * (or an error: nothing written), 2 usage.
 *
 * This module is the command: flags → reads (./read.ts) → render → report (./report.ts, pure) → files, all or
 * nothing (src/output/chart-files.ts) → lines (./print.ts, pure) → exit code.
 */
import { basename, join } from 'node:path';
import type { KubeClient } from '../../kube/client.js';
import { membershipDisagreements } from '../../rules/node-membership.js';
import { toNodeView } from '../../rules/node-view.js';
import type { Manifest } from '../../rules/manifest.js';
import { connect, unreachable } from '../../kube/connect.js';
import { stamped, writeChartFiles } from '../../output/chart-files.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { parseSpecText } from '../../specs/load.js';
import { renderChartDir } from '../chart-render.js';
import type { Io } from '../../util/io.js';
import { IMPORT_USAGE, parseImportArgs, type ImportArgs } from './args.js';
import { errorLines, refusalLines, reportLines } from './print.js';
import { readMade, readResources } from './read.js';
import { allAdoptable, reportFor, resourcePins, type NodeDisagreement, type ReadResource } from './report.js';
import { specFileName, specFileText } from './spec-file.js';

export type { Imported } from './report.js';

/** Runs `specforge import` with the arguments after `import`. */
export async function runImport(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(IMPORT_USAGE);
    return 0;
  }
  const a = parseImportArgs(args);
  const client = await connect(a);
  try {
    return await importWith(client, a, io);
  } catch (e) {
    throw unreachable(client, e);
  } finally {
    client.close();
  }
}

/** The import itself, once connected. */
async function importWith(client: KubeClient, a: ImportArgs, io: Io): Promise<number> {
  const errors: LocatedProblem[] = [];
  const resources = await readImported(client, a, errors);
  // Rendered as written (with the stamp line): error line numbers are the file's.
  const render =
    errors.length > 0
      ? undefined
      : await renderChartDir(a.chart, new Map(resources.map((r) => [r.file, stamped(r.text)])));
  errors.push(...(render?.errors ?? []));
  if (errors.length > 0) {
    for (const line of errorLines(a.chart, errors)) io.err(line);
    return 1;
  }
  const report = resources.map((r) => reportFor(r, render?.objects ?? []));
  const nodes = await nodeDisagreements(
    client,
    resources.filter((r) => r.seed.kind === 'NodePool').map((r) => String(r.cr.metadata?.name)),
  );
  const written = writeChartFiles(a.chart, new Map(resources.map((r) => [basename(r.file), r.text])), {
    force: a.force,
  });
  if (written.refused.length > 0) {
    for (const line of refusalLines(a.chart, written)) io.err(line);
    return 1;
  }
  for (const line of reportLines(a.format, { report, nodes, written })) io.out(line);
  return allAdoptable(report) ? 0 : 1;
}

/** A resource to import and the text of its spec file (unstamped: the writer adds the stamp line). */
interface ImportedFile extends ReadResource {
  readonly text: string;
}

/**
 * Every resource to import, with what its operator made, its pins and its spec file (path and text); each spec
 * file's parse errors (as written, with the stamp line) and the reads' errors added to `errors`.
 */
async function readImported(
  client: KubeClient,
  a: ImportArgs,
  errors: LocatedProblem[],
): Promise<ImportedFile[]> {
  const out: ImportedFile[] = [];
  for (const found of await readResources(client, a.namespaces, errors)) {
    const made = await readMade(client, found);
    const pins = resourcePins(found, made);
    const text = specFileText(found.cr, pins);
    const file = join(a.chart, specFileName(found.cr));
    errors.push(...parseSpecText(stamped(text), file).errors);
    out.push({ ...found, ...made, file, pins, text });
  }
  return out;
}

async function nodeDisagreements(client: KubeClient, pools: readonly string[]): Promise<NodeDisagreement[]> {
  if (pools.length === 0) return [];
  const nodes = (await client.request<{ items: Manifest[] }>('GET', '/api/v1/nodes')).items.map(toNodeView);
  return pools.flatMap((pool) => membershipDisagreements(nodes, pool).map((d) => ({ pool, ...d })));
}
