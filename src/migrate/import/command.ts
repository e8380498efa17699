/**
 * `specforge import`: reads the seed operators' live custom resources (read-only on the cluster) and writes one spec
 * file per resource into a chart, with the adoption pins that let specforge's render take the operator's objects over
 * as they are. Reports, per object the operator made, whether it is adopted, adopted with pins, replaced, created or
 * blocked, where the live objects differ from their resource's spec (what the first sync changes), and the Nodes
 * the seed's and specforge's membership rules disagree on. Exit 0 all adoptable, 1 something blocked or replaced
 * (or an error: nothing written), 2 usage.
 */
import { basename, join } from 'node:path';
import { isStatus, type KubeClient } from '../../kube/client.js';
import { membershipDisagreements } from '../../rules/node-membership.js';
import { toNodeView } from '../../rules/node-view.js';
import type { RawObject } from '../../rules/raw-object.js';
import { connect, unreachable } from '../../kube/connect.js';
import { stamped, writeChartFiles } from '../../output/chart-files.js';
import { objectsOfFiles } from '../../render/files.js';
import { loadChartDir } from '../../render/load-charts.js';
import { renderChartsAsync, type ChartInput } from '../../render/render.js';
import type { Obj } from '../../rules/objects.js';
import { formatError, type SpecError } from '../../rules/problem.js';
import { parseSpecText } from '../../specs/load.js';
import { IMPORT_USAGE, parseImportArgs, type ImportArgs } from './args.js';
import { print, refuse } from './print.js';
import { differences, verdictFor, type Difference, type ObjectVerdict } from './classify.js';
import { pinsFor, type LiveSet, type Pins } from './pins.js';
import { SEED_KINDS, type MadeObject, type SeedKind } from '../../rules/seed-kinds.js';
import { specFileName, specFileText } from './spec-file.js';

export interface ImportIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** One imported resource and what adoption does with what its operator made. */
export interface Imported {
  readonly resource: string;
  readonly file: string;
  readonly objects: ObjectVerdict[];
  readonly differences: Difference[];
}

/** Runs `specforge import` with the arguments after `import`. */
export async function runImport(args: readonly string[], io: ImportIo): Promise<number> {
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
async function importWith(client: KubeClient, a: ImportArgs, io: ImportIo): Promise<number> {
  const errors: SpecError[] = [];
  const found = await readResources(client, a.namespaces, errors);
  const chartName = basename(a.chart.replace(/\/+$/, ''));
  const files = new Map<string, string>();
  const lives: ReadResource[] = [];
  for (const { cr, seed } of found) {
    const made = await readMade(client, cr, seed);
    const pins = resourcePins(cr, seed, made);
    const text = specFileText(cr, pins);
    const file = join(a.chart, specFileName(cr));
    // Parsed and rendered as written (with the stamp line): error line numbers are the file's.
    errors.push(...parseSpecText(stamped(text), file).errors);
    files.set(file, text);
    lives.push({ cr, seed, ...made, file, pins });
  }
  const rendered = errors.length > 0 ? [] : await renderWith(a.chart, chartName, files, errors);
  if (errors.length > 0) {
    for (const e of errors) io.err(formatError(e));
    io.err(
      `specforge: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing imported, ${a.chart} unchanged.`,
    );
    return 1;
  }
  const report = lives.map((l) => reportFor(l, { pinned: l.pins as Obj, rendered }));
  const nodes = await nodeDisagreements(
    client,
    lives.filter((l) => l.seed.kind === 'NodePool').map((l) => String(l.cr.metadata?.name)),
  );
  const written = writeChartFiles(
    a.chart,
    new Map([...files].map(([file, text]) => [basename(file), text])),
    { force: a.force },
  );
  if (written.refused.length > 0) return refuse(io, a.chart, written);
  print(io, a.format, { report, nodes, written });
  const bad = report.some((r) => r.objects.some((o) => o.verdict === 'replace' || o.verdict === 'blocked'));
  return bad ? 1 : 0;
}

/** What the operator made for one resource: the live objects by kind, and the kinds that name it as owner. */
interface MadeSet {
  readonly live: LiveSet;
  readonly owned: ReadonlySet<string>;
}

/** One resource read for import: the resource, its seed kind, what its operator made, and its spec file's path. */
interface ReadResource extends MadeSet {
  readonly cr: Obj;
  readonly seed: SeedKind;
  readonly file: string;
  /** The pins written into its spec file. */
  readonly pins: Pins;
}

/** The pins of `cr`: what the objects its operator made, and that name it as owner, pin. Pure. */
function resourcePins(cr: Obj, seed: SeedKind, { live, owned }: MadeSet): Pins {
  const name = String(cr.metadata?.name);
  const ownedLive = Object.fromEntries(Object.entries(live).filter(([kind]) => owned.has(kind))) as LiveSet;
  return pinsFor({ kind: seed.kind, name, spec: cr.spec ?? {} }, ownedLive, defaultNames(name));
}

/** What one imported resource is judged against: its spec file's pins and every object the chart renders. */
interface Rendering {
  readonly pinned: Obj;
  readonly rendered: readonly Obj[];
}

/** The report on one imported resource: a verdict per object its operator made, and the first sync's changes. Pure. */
function reportFor(l: ReadResource, rendering: Rendering): Imported {
  const name = String(l.cr.metadata?.name);
  const ns = l.cr.metadata?.namespace as string | undefined;
  const judged = l.seed.made.map((made) => judge(made, { ...l, ...rendering, name, namespace: ns }));
  return {
    resource: `${l.seed.kind} ${ns === undefined ? name : `${ns}/${name}`}`,
    file: l.file,
    objects: judged.map((j) => j.verdict),
    differences: judged.flatMap((j) => j.differences),
  };
}

/** Everything one object the operator made is judged by: what it made, the pins, the render, the resource's name. */
interface Judging extends MadeSet, Rendering {
  readonly name: string;
  readonly namespace: string | undefined;
}

/**
 * The verdict on one object the operator made, and the fields where the live object differs from its render (only
 * when it exists, is rendered and belongs to the resource). Pure.
 */
function judge(made: MadeObject, j: Judging): { verdict: ObjectVerdict; differences: Difference[] } {
  const live = j.live[made.kind as keyof LiveSet];
  const rendered = renderedFor(made, j);
  const owned = j.owned.has(made.kind);
  const verdict = verdictFor({
    made: { kind: made.kind, name: made.name(j.name) },
    live,
    ownedByResource: owned,
    rendered,
    pins: pinsOf(made.kind, j.pinned),
  });
  return {
    verdict,
    differences: live !== undefined && rendered !== undefined && owned ? differences(rendered, live) : [],
  };
}

/** The rendered object that takes over what the operator made: same kind, name and namespace. Pure. */
function renderedFor(made: MadeObject, j: Judging): Obj | undefined {
  const name = renderedName(made, j.pinned, j.name);
  return j.rendered.find(
    (o) =>
      o.kind === made.kind &&
      o.metadata?.name === name &&
      (!made.namespaced || (o.metadata?.namespace ?? 'default') === (j.namespace ?? 'default')),
  );
}

/**
 * The name specforge renders for an object the operator made: its `adopt.names` pin, else (a RuntimeClass) the
 * `runtimeClassName` pin, else the resource's name. Pure.
 */
function renderedName(made: MadeObject, pinned: Obj, crName: string): string {
  return (
    (made.pin === undefined ? undefined : pinned.names?.[made.pin]) ??
    (made.kind === 'RuntimeClass' ? (pinned.runtimeClassName ?? crName) : crName)
  );
}

/** The `adopt` keys that concern an object of this kind, for the report. */
function pinsOf(kind: string, pinned: Obj): string[] {
  const keys: Record<string, string[]> = {
    Deployment: ['selector', 'podLabels', 'container'],
    Service: ['selector'],
    Ingress: ['ingressClassAnnotation'],
    Route: ['routeHost'],
    RuntimeClass: ['runtimeClassName'],
  };
  const names = {
    Deployment: 'deployment',
    Service: 'service',
    Ingress: 'ingress',
    Route: 'route',
  } as Record<string, string>;
  const out = (keys[kind] ?? []).filter((k) => pinned[k] !== undefined);
  const n = names[kind];
  if (n !== undefined && pinned.names?.[n] !== undefined) out.push(`names.${n}`);
  return out;
}

function defaultNames(cr: string): Record<string, string> {
  return { deployment: cr, service: cr, ingress: cr, route: cr };
}

/**
 * Every live resource of a seed kind, read in the version specforge reads, sorted by kind, namespace and name. A
 * CRD of a seed kind that serves none of those versions but has resources adds an error to `errors`.
 */
async function readResources(
  client: KubeClient,
  namespaces: string[] | 'all',
  errors: SpecError[],
): Promise<{ cr: Obj; seed: SeedKind }[]> {
  const crds = await client.request<{ items: Obj[] }>(
    'GET',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  );
  const out: { cr: Obj; seed: SeedKind }[] = [];
  for (const crd of crds.items) {
    const seedCrd = seedCrdOf(crd);
    if (seedCrd === undefined) continue;
    const read = await readSeedResources(client, seedCrd, namespaces);
    out.push(...read.resources);
    if (read.error !== undefined) errors.push(read.error);
  }
  return out.sort((a, b) => (key(a.cr) < key(b.cr) ? -1 : 1));
}

/** A CRD of a kind the seed operators made: the seed kinds it may be, and what it serves. */
interface SeedCrd {
  readonly name: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** The seed kinds of its group and kind (one per version specforge reads). */
  readonly known: readonly SeedKind[];
  /** The apiVersions it serves. */
  readonly served: readonly string[];
}

/** A CRD as {@link SeedCrd}, or undefined when its group and kind are no seed kind's. Pure. */
function seedCrdOf(crd: Obj): SeedCrd | undefined {
  const group = String(crd.spec?.group);
  const kind = String(crd.spec?.names?.kind);
  const known = SEED_KINDS.filter((s) => s.apiVersion.startsWith(`${group}/`) && s.kind === kind);
  if (known.length === 0) return undefined;
  return {
    name: String(crd.metadata?.name),
    kind,
    plural: String(crd.spec?.names?.plural),
    namespaced: crd.spec?.scope === 'Namespaced',
    known,
    served: ((crd.spec?.versions ?? []) as Obj[])
      .filter((v) => v.served === true)
      .map((v) => `${group}/${v.name}`),
  };
}

/**
 * The resources of a seed CRD in `namespaces`. One set of objects, served in every version: read it in the version
 * specforge reads, if the CRD serves it; if not, none, and an error when it has resources.
 */
async function readSeedResources(
  client: KubeClient,
  crd: SeedCrd,
  namespaces: string[] | 'all',
): Promise<{ resources: { cr: Obj; seed: SeedKind }[]; error?: SpecError }> {
  const where = { plural: crd.plural, namespaced: crd.namespaced, namespaces };
  const seed = crd.known.find((s) => crd.served.includes(s.apiVersion));
  if (seed === undefined) {
    const other = crd.served[0];
    const items = other === undefined ? [] : await listResources(client, { apiVersion: other, ...where });
    return { resources: [], ...(items.length > 0 ? { error: unreadVersionError(crd, items.length) } : {}) };
  }
  const items = await listResources(client, { apiVersion: seed.apiVersion, ...where });
  return {
    resources: items.map((cr) => ({ cr: { ...cr, apiVersion: seed.apiVersion, kind: crd.kind }, seed })),
  };
}

/** The error for `count` resources of a seed CRD that serves none of the versions specforge reads. Pure. */
function unreadVersionError(crd: SeedCrd, count: number): SpecError {
  return {
    file: `CustomResourceDefinition ${crd.name}`,
    path: 'spec.versions',
    expected: `${crd.kind} resources served as ${crd.known.map((s) => s.apiVersion).join(' or ')}, the versions specforge reads`,
    found: `${count} served only as ${crd.served.join(', ')}`,
    hint: 'Serve a version specforge reads (or convert the resources), then import again.',
  };
}

function key(o: Obj): string {
  return `${o.kind}|${o.metadata?.namespace ?? ''}|${o.metadata?.name}`;
}

/** Which resources to list: their apiVersion and plural, whether namespaced, and in which namespaces. */
interface ResourceListing {
  readonly apiVersion: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Ignored for cluster-scoped resources. */
  readonly namespaces: string[] | 'all';
}

/** Lists the resources: across the cluster, or one LIST per namespace when namespaced and namespaces are given. */
async function listResources(
  client: KubeClient,
  { apiVersion, plural, namespaced, namespaces }: ResourceListing,
): Promise<Obj[]> {
  const paths =
    !namespaced || namespaces === 'all'
      ? [`/apis/${apiVersion}/${plural}`]
      : namespaces.map((ns) => `/apis/${apiVersion}/namespaces/${ns}/${plural}`);
  const out: Obj[] = [];
  for (const p of paths) out.push(...(await client.request<{ items: Obj[] }>('GET', p)).items);
  return out;
}

/** The objects the operator made for `cr`, by its naming rule, and which of them name `cr` as owner (by uid). */
async function readMade(
  client: KubeClient,
  cr: Obj,
  seed: SeedKind,
): Promise<{ live: LiveSet; owned: Set<string> }> {
  const live: Record<string, Obj> = {};
  const owned = new Set<string>();
  const name = String(cr.metadata?.name);
  for (const m of seed.made) {
    const ns = m.namespaced ? `/namespaces/${cr.metadata?.namespace}` : '';
    try {
      const o = await client.request<Obj>(
        'GET',
        `${m.prefix}${ns}/${m.plural}/${encodeURIComponent(m.name(name))}`,
      );
      live[m.kind] = o;
      if (((o.metadata?.ownerReferences ?? []) as Obj[]).some((r) => r.uid === cr.metadata?.uid))
        owned.add(m.kind);
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
  return { live: live as LiveSet, owned };
}

/** Renders the chart with the imported files in it (in memory): the objects, or errors. */
async function renderWith(
  chartDir: string,
  name: string,
  files: ReadonlyMap<string, string>,
  errors: SpecError[],
): Promise<Obj[]> {
  const loaded = await loadChartDir(chartDir);
  errors.push(...loaded.errors);
  const input: ChartInput = loaded.input ?? { name, dir: chartDir, specFiles: [] };
  const specFiles = [
    ...input.specFiles.filter((f) => !files.has(f.file)),
    ...[...files].map(([file, text]) => ({
      file,
      relative: `${name}/${basename(file)}`,
      text: stamped(text),
    })),
  ].sort((a, b) => (a.file < b.file ? -1 : 1));
  const result = await renderChartsAsync([{ ...input, specFiles }]);
  errors.push(...result.errors);
  return objectsOfFiles(result.files);
}

async function nodeDisagreements(
  client: KubeClient,
  pools: readonly string[],
): Promise<{ pool: string; node: string; value: string }[]> {
  if (pools.length === 0) return [];
  const nodes = (await client.request<{ items: RawObject[] }>('GET', '/api/v1/nodes')).items.map(toNodeView);
  return pools.flatMap((pool) => membershipDisagreements(nodes, pool).map((d) => ({ pool, ...d })));
}
