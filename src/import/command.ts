/**
 * `specforge import`: reads the seed operators' live custom resources (read-only on the cluster) and writes one spec
 * file per resource into a chart, with the adoption pins that let specforge's render take the operator's objects over
 * as they are. Reports, per object the operator made, whether it is adopted, adopted with pins, replaced, created or
 * blocked, where the live objects differ from their resource's spec (what the first sync changes), and the Nodes
 * the seed's and specforge's membership rules disagree on. Exit 0 all adoptable, 1 something blocked or replaced
 * (or an error: nothing written), 2 usage.
 */
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { isStatus, type KubeClient } from '../controller/kube.js';
import { membershipDisagreements } from '../controller/membership.js';
import { toNodeView, type RawObject } from '../controller/model.js';
import { connect } from '../kube-connect.js';
import { stamped, writeChartFiles, type ChartWriteOutcome } from '../output/chart-files.js';
import { objectsOfFiles } from '../render/files.js';
import { loadChartDir } from '../render/load-charts.js';
import { renderChartsAsync, type ChartInput } from '../render/render.js';
import type { Obj } from '../rules/objects.js';
import { formatError, type SpecError } from '../specs/errors.js';
import { parseSpecText } from '../specs/load.js';
import { namespaceValue, nonEmptyValue } from '../flag-values.js';
import { UsageError } from '../usage-error.js';
import { differences, verdictFor, type Difference, type ObjectVerdict } from './classify.js';
import { pinsFor, type LiveSet, type Pins } from './pins.js';
import { SEED_KINDS, type MadeObject, type SeedKind } from './seeds.js';
import { specFileName, specFileText } from './spec-file.js';

export interface ImportIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

export const IMPORT_USAGE = `Usage: specforge import --chart DIR (-n NAMESPACE ... | --all-namespaces)
                       [--kubeconfig FILE] [--context NAME] [--format text|json] [--force]

Reads the seed operators' custom resources (AppService, Myapp, Podroute, NodePool) from the cluster, read-only,
and writes one spec file per resource into the chart DIR, with the adoption pins that take the objects the
operator made over as they are. Reports what adoption does with each object, where the live objects differ from
their resource's spec, and the Nodes whose NodePool membership the old and the new rule disagree on.

Each file is named <kind>_<group>_<namespace>_<name>.yaml and starts with a line recording what import wrote. A
re-import replaces a file only while it is unchanged since: a file the team edited, one import did not write, or a
link is named and nothing is written (exit 1), unless --force. Import never deletes a file and never follows a link.
-n takes a namespace name (an empty one is a usage error); --all-namespaces means every namespace.

Exit codes: 0 every object adoptable, 1 something replaced or blocked (or an error; nothing written), 2 usage.`;

/** One imported resource and what adoption does with what its operator made. */
export interface Imported {
  readonly resource: string;
  readonly file: string;
  readonly objects: ObjectVerdict[];
  readonly differences: Difference[];
}

interface ImportArgs {
  readonly chart: string;
  readonly namespaces: string[] | 'all';
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly format: 'text' | 'json';
  readonly force: boolean;
}

/** Runs `specforge import` with the arguments after `import`. */
export async function runImport(args: readonly string[], io: ImportIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(IMPORT_USAGE);
    return 0;
  }
  const a = parseImportArgs(args);
  const client = await connect(a);
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

/** Names every file import would not replace, and how to go on: exit 1, nothing written. */
function refuse(io: ImportIo, chart: string, written: ChartWriteOutcome): number {
  for (const r of written.refused)
    io.err(
      `${r.file}: import would replace this file, but ${r.why}. Keep your changes (commit them, or move the file away) and import again, or pass --force to replace it with what the cluster holds.`,
    );
  const n = written.refused.length;
  io.err(`specforge: ${n} file${n === 1 ? '' : 's'} in the way; nothing imported, ${chart} unchanged.`);
  return 1;
}

/** What import prints: a report per resource, the membership disagreements, and what it did to the chart's files. */
interface Printed {
  readonly report: Imported[];
  readonly nodes: { pool: string; node: string; value: string }[];
  readonly written: ChartWriteOutcome;
}

function print(io: ImportIo, format: 'text' | 'json', { report, nodes, written }: Printed): void {
  if (format === 'json') {
    const files = {
      created: written.created,
      updated: written.updated,
      replaced: written.forced,
      unchanged: written.unchanged,
    };
    io.out(JSON.stringify({ resources: report, membership: nodes, files }, null, 2));
    return;
  }
  for (const f of written.forced)
    io.out(`${f.file}: replaced (--force), although ${f.why}; git shows what changed.`);
  for (const r of report) {
    io.out(`${r.resource} → ${r.file}`);
    for (const o of r.objects)
      io.out(
        `  ${o.kind} ${o.name}: ${o.verdict}${o.pins !== undefined ? ` (${o.pins.join(', ')})` : ''}${o.why === undefined ? '' : `: ${o.why}`}`,
      );
    for (const d of r.differences)
      io.out(
        `  first sync changes ${d.kind} ${d.name} ${d.path}: ${JSON.stringify(d.live)} → ${JSON.stringify(d.spec)} (the operator never applied the spec's value)`,
      );
  }
  for (const n of nodes)
    io.out(
      `Node ${n.node}: node-role.kubernetes.io/${n.pool}=${JSON.stringify(n.value)} is a member of pool ${n.pool} under specforge's default rule but not the seed's; the imported pool keeps the seed's rule (adopt.membership).`,
    );
  io.out(`specforge: imported ${report.length} resource${report.length === 1 ? '' : 's'}.`);
}

function parseImportArgs(args: readonly string[]): ImportArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      chart: { type: 'string' },
      namespace: { type: 'string', short: 'n', multiple: true },
      'all-namespaces': { type: 'boolean', short: 'A' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      format: { type: 'string' },
      force: { type: 'boolean' },
    },
  });
  if (positionals.length > 0)
    throw new UsageError(`import takes no positional argument, got ${JSON.stringify(positionals[0])}`);
  if (values.chart === undefined)
    throw new UsageError('import needs --chart DIR (the chart to write the spec files into)');
  const all = values['all-namespaces'] === true;
  const ns = [...new Set((values.namespace ?? []).map((n) => namespaceValue('-n', n)))];
  if (all === ns.length > 0)
    throw new UsageError('import needs either -n NAMESPACE (repeatable) or --all-namespaces');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format takes text or json, got ${JSON.stringify(format)}`);
  return {
    chart: nonEmptyValue('--chart', values.chart, 'the chart directory to write the spec files into'),
    namespaces: all ? 'all' : ns,
    format,
    force: values.force === true,
    ...(values.kubeconfig === undefined
      ? {}
      : { kubeconfig: nonEmptyValue('--kubeconfig', values.kubeconfig, 'a kubeconfig file') }),
    ...(values.context === undefined
      ? {}
      : { context: nonEmptyValue('--context', values.context, 'a context of the kubeconfig') }),
  };
}
