/**
 * `specforge import`: reads the seed operators' live custom resources (read-only on the cluster) and writes one spec
 * file per resource into a chart, with the adoption pins that let specforge's render take the operator's objects over
 * as they are. Reports, per object the operator made, whether it is adopted, adopted with pins, replaced, created or
 * blocked, where the live objects differ from their resource's spec (what the first sync changes), and the Nodes
 * the seed's and specforge's membership rules disagree on. A resource it cannot take (its spec file would not
 * render) is left out and named, and the others imported. Exit 0 all adoptable with no pod restarted or rescaled, 1
 * something restarted, rescaled, replaced, blocked or left out (or an error in the chart itself: nothing written),
 * 2 usage.
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
import { formatError } from '../../rules/problem-format.js';
import { describe } from '../io.js';
import type { Pins } from './pins.js';
import { errorLines, refusalLines, reportLines, skippedLines, type Skipped } from './print.js';
import { readMade, readResources } from './read.js';
import { allAdoptable, reportFor, resourcePins, type NodeDisagreement, type ReadResource } from './report.js';
import { specFileName, specFileText } from './spec-file.js';
import { exposureOf } from './exposure.js';

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
  const read = await readImported(client, a);
  const { taken, skipped, render } = await renderTaken(a.chart, read.taken, read.skipped);
  // Errors in the chart's own files (not one import writes) stop it: the chart does not render whatever it takes.
  const errors = render.errors;
  if (errors.length > 0) {
    for (const line of errorLines(a.chart, errors)) io.err(line);
    return 1;
  }
  const report = taken.map((r) => reportFor(r, render.objects));
  const nodes = await nodeDisagreements(
    client,
    taken.filter((r) => r.seed.kind === 'NodePool').map((r) => String(r.cr.metadata?.name)),
  );
  // Nothing taken: nothing written (not even the chart directory).
  const written = writeChartFiles(a.chart, new Map(taken.map((r) => [basename(r.file), r.text])), {
    force: a.force,
  });
  if (written.refused.length > 0) {
    for (const line of refusalLines(a.chart, written)) io.err(line);
    return 1;
  }
  if (a.format === 'text') for (const line of skippedLines(skipped)) io.err(line);
  for (const line of reportLines(a.format, { report, nodes, written, skipped })) io.out(line);
  return allAdoptable(report) && skipped.length === 0 ? 0 : 1;
}

/**
 * Renders the chart with the files of `taken`; a resource whose own file has errors (as written, or together with
 * the others: two specs of one object) is left out with them, and the rest rendered again, so one resource specforge
 * cannot take never blocks the others. What is left: the resources taken, those skipped (with why), and the render
 * (its errors now only the chart's own files').
 */
async function renderTaken(
  chart: string,
  resources: readonly ImportedFile[],
  skippedBefore: readonly Skipped[],
): Promise<{
  taken: ImportedFile[];
  skipped: Skipped[];
  render: { objects: Manifest[]; errors: LocatedProblem[] };
}> {
  let taken = [...resources];
  const skipped = [...skippedBefore];
  for (;;) {
    // Rendered as written (with the stamp line): error line numbers are the file's.
    const render = await renderChartDir(chart, new Map(taken.map((r) => [r.file, stamped(r.text)])));
    const own = (r: ImportedFile): LocatedProblem[] => render.errors.filter((e) => e.file === r.file);
    const bad = taken.filter((r) => own(r).length > 0);
    if (bad.length === 0) return { taken, skipped, render };
    for (const r of bad) skipped.push({ resource: resourceName(r), why: own(r).map(formatError) });
    taken = taken.filter((r) => !bad.includes(r));
  }
}

/** A resource to import and the text of its spec file (unstamped: the writer adds the stamp line). */
interface ImportedFile extends ReadResource {
  readonly text: string;
}

/**
 * Every resource to import, with what its operator made, its pins and its spec file (path and text), and those left
 * out with why: a spec file that does not parse (as written, with the stamp line), or a NodePool whose name another
 * imported NodePool has (blog-code 03's were namespaced; specforge's are cluster-scoped), or the resources of a CRD
 * that serves no version specforge reads.
 */
async function readImported(
  client: KubeClient,
  a: ImportArgs,
): Promise<{ taken: ImportedFile[]; skipped: Skipped[] }> {
  const taken: ImportedFile[] = [];
  const unread: LocatedProblem[] = [];
  const resources = await readResources(client, a.namespaces, unread);
  // A CRD serving no version specforge reads leaves its resources out; the others are imported.
  const skipped: Skipped[] = unread.map((e) => ({ resource: e.file, why: [formatError(e)] }));
  const pools = new Map<string, string>();
  for (const found of resources) {
    const made = await readMade(client, found);
    const { cr, pins } = clusterScopedPool(found.cr, resourcePins(found, made));
    const file = join(a.chart, specFileName(found.cr));
    const name = resourceName({ cr: found.cr, seed: found.seed });
    const other = found.seed.kind === 'NodePool' ? pools.get(String(cr.metadata?.name)) : undefined;
    if (other !== undefined) {
      skipped.push({ resource: name, why: [sharedPoolName(String(cr.metadata?.name), other)] });
      continue;
    }
    if (found.seed.kind === 'NodePool') pools.set(String(cr.metadata?.name), name);
    const text = specFileText(cr, pins, exposureOf(found.seed.kind, made.live, made.httpRoute));
    const problems = parseSpecText(stamped(text), file).errors;
    if (problems.length > 0) {
      skipped.push({ resource: name, why: problems.map(formatError) });
      continue;
    }
    taken.push({ ...found, ...made, file, pins, text });
  }
  return { taken, skipped };
}

/**
 * A NodePool read from a namespaced CRD (blog-code 03) as specforge's cluster-scoped pool: no namespace, and the old
 * resource's namespace pinned (`adopt.resourceNamespace`) for `specforge adopt` to find it. Others as they are. Pure.
 */
function clusterScopedPool(cr: Manifest, pins: Pins): { cr: Manifest; pins: Pins } {
  const namespace = cr.metadata?.namespace as string | undefined;
  if (cr.kind !== 'NodePool' || namespace === undefined) return { cr, pins };
  const metadata = Object.fromEntries(Object.entries(cr.metadata ?? {}).filter(([k]) => k !== 'namespace'));
  return { cr: { ...cr, metadata }, pins: { ...pins, resourceNamespace: namespace } };
}

function sharedPoolName(pool: string, other: string): string {
  return `NodePool ${pool} is imported already from ${other}: specforge's NodePools are cluster-scoped, so one name is one pool. Not imported: rename one of the two (a new pool beside the old one), then import again.`;
}

/** `<kind> [<namespace>/]<name> (<apiVersion>)`: two CRDs' resources of one kind and name told apart. */
function resourceName({ cr, seed }: Pick<ReadResource, 'cr' | 'seed'>): string {
  const ns = cr.metadata?.namespace as string | undefined;
  const name = describe({
    kind: seed.kind,
    name: String(cr.metadata?.name),
    ...(ns === undefined ? {} : { namespace: ns }),
  });
  return `${name} (${seed.apiVersion})`;
}

async function nodeDisagreements(client: KubeClient, pools: readonly string[]): Promise<NodeDisagreement[]> {
  if (pools.length === 0) return [];
  const nodes = (await client.request<{ items: Manifest[] }>('GET', '/api/v1/nodes')).items.map(toNodeView);
  return pools.flatMap((pool) => membershipDisagreements(nodes, pool).map((d) => ({ pool, ...d })));
}
