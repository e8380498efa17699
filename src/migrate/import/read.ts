/**
 * What `specforge import` reads from the API server (GETs and LISTs only): the live resources of the seed kinds, in
 * the version specforge reads, and the objects each one's operator made by its naming rule.
 */
import { type Manifest } from '../../rules/manifest.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { SEED_KINDS, type SeedKind } from '../../rules/seed-kinds.js';
import { GATEWAY_API_VERSION } from '../../rules/vocabulary.js';
import {
  getOrUndefined,
  listCrds,
  listItems,
  listOrEmpty,
  type Crd,
  type MigrateClient,
} from '../cluster.js';
import { customResourceCollection, madeCollection, objectPath } from '../paths.js';
import type { LiveSet } from './pins.js';

/** A live resource of a seed kind, as read (in the seed kind's apiVersion), and that seed kind. */
export interface FoundResource {
  readonly cr: Manifest;
  readonly seed: SeedKind;
}

/** What the operator made for one resource: the live objects by kind, and the kinds that name it as owner. */
export interface MadeSet {
  readonly live: LiveSet;
  readonly owned: ReadonlySet<string>;
  /** The names of the live Deployment's pods (those its selector matches), sorted. */
  readonly pods: readonly string[];
  /**
   * A Myapp's or Podroute's HTTPRoute of the resource's name, when one is live (made beside the operator's objects, by
   * hand or by a render of `exposure: both`): what import reads the exposure from (src/migrate/import/exposure.ts).
   */
  readonly httpRoute?: Manifest;
}

/** Where to read: the namespaces given with -n, or every namespace. */
export type Namespaces = readonly string[] | 'all';

/**
 * Every live resource of a seed kind, read in the version specforge reads, sorted by kind, namespace and name. A
 * CRD of a seed kind that serves none of those versions but has resources adds an error to `errors`.
 */
export async function readResources(
  client: MigrateClient,
  namespaces: Namespaces,
  errors: LocatedProblem[],
): Promise<FoundResource[]> {
  const out: FoundResource[] = [];
  for (const crd of await listCrds(client)) {
    const seedCrd = seedCrdOf(crd);
    if (seedCrd === undefined) continue;
    const read = await readSeedResources(client, seedCrd, namespaces);
    out.push(...read.resources);
    if (read.error !== undefined) errors.push(read.error);
  }
  return out.sort((a, b) => (key(a.cr) < key(b.cr) ? -1 : 1));
}

/** A CRD of a kind the seed operators made: the seed kinds it may be, and what it serves. */
export interface SeedCrd {
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
export function seedCrdOf(crd: Crd): SeedCrd | undefined {
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
    served: (crd.spec?.versions ?? []).filter((v) => v.served === true).map((v) => `${group}/${v.name}`),
  };
}

/**
 * The resources of a seed CRD in `namespaces`. One set of objects, served in every version: read it in the version
 * specforge reads, if the CRD serves it; if not, none, and an error when it has resources.
 */
async function readSeedResources(
  client: MigrateClient,
  crd: SeedCrd,
  namespaces: Namespaces,
): Promise<{ resources: FoundResource[]; error?: LocatedProblem }> {
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
export function unreadVersionError(crd: SeedCrd, count: number): LocatedProblem {
  return {
    file: `CustomResourceDefinition ${crd.name}`,
    path: 'spec.versions',
    expected: `${crd.kind} resources served as ${crd.known.map((s) => s.apiVersion).join(' or ')}, the versions specforge reads`,
    found: `${count} served only as ${crd.served.join(', ')}`,
    hint: 'Serve a version specforge reads (or convert the resources), then import again.',
  };
}

function key(o: Manifest): string {
  return `${o.kind}|${o.metadata?.namespace ?? ''}|${o.metadata?.name}`;
}

/** Which resources to list: their apiVersion and plural, whether namespaced, and in which namespaces. */
interface ResourceListing {
  readonly apiVersion: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Ignored for cluster-scoped resources. */
  readonly namespaces: Namespaces;
}

/**
 * Lists the resources: across the cluster, or one LIST per namespace when namespaced and namespaces are given. None
 * where the API server no longer serves them (404): a CRD listed a moment before may be going (`adopt` deletes an old
 * CRD with its last resource, and the API server drops its resources before the CRD itself).
 */
async function listResources(
  client: MigrateClient,
  { apiVersion, plural, namespaced, namespaces }: ResourceListing,
): Promise<Manifest[]> {
  const paths =
    !namespaced || namespaces === 'all'
      ? [customResourceCollection({ apiVersion, plural })]
      : namespaces.map((namespace) => customResourceCollection({ apiVersion, plural, namespace }));
  const out: Manifest[] = [];
  for (const p of paths) out.push(...(await listOrEmpty<Manifest>(client, p)));
  return out;
}

/** The objects the operator made for `cr`, by its naming rule, and which of them name `cr` as owner (by uid). */
export async function readMade(client: MigrateClient, { cr, seed }: FoundResource): Promise<MadeSet> {
  const live: Record<string, Manifest> = {};
  const owned = new Set<string>();
  const name = String(cr.metadata?.name);
  for (const m of seed.made) {
    const path = objectPath(madeCollection(m, cr.metadata?.namespace as string | undefined), m.name(name));
    const o = await getOrUndefined<Manifest>(client, path);
    if (o === undefined) continue;
    live[m.kind] = o;
    if (((o.metadata?.ownerReferences ?? []) as Manifest[]).some((r) => r.uid === cr.metadata?.uid))
      owned.add(m.kind);
  }
  const httpRoute = await httpRouteOf(client, seed, cr);
  return {
    live: live as LiveSet,
    owned,
    pods: await podsOf(client, live.Deployment),
    ...(httpRoute === undefined ? {} : { httpRoute }),
  };
}

/**
 * The live HTTPRoute named as the resource, in its namespace, for the kinds with an exposure (Myapp, Podroute); none
 * where the Gateway API is not served (404, as for a route not there).
 */
async function httpRouteOf(
  client: MigrateClient,
  seed: SeedKind,
  cr: Manifest,
): Promise<Manifest | undefined> {
  if (seed.kind !== 'Myapp' && seed.kind !== 'Podroute') return undefined;
  const ns = encodeURIComponent(String(cr.metadata?.namespace ?? 'default'));
  const name = encodeURIComponent(String(cr.metadata?.name));
  return getOrUndefined<Manifest>(client, `/apis/${GATEWAY_API_VERSION}/namespaces/${ns}/httproutes/${name}`);
}

/** The names of the pods a live Deployment's selector matches, sorted; none without a Deployment. */
async function podsOf(client: MigrateClient, d: Manifest | undefined): Promise<string[]> {
  const match = d?.spec?.selector?.matchLabels as Record<string, string> | undefined;
  if (d === undefined || match === undefined) return [];
  const selector = Object.entries(match)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const path = `/api/v1/namespaces/${encodeURIComponent(String(d.metadata?.namespace))}/pods?labelSelector=${encodeURIComponent(selector)}`;
  const pods = await listItems<Manifest>(client, path);
  return pods
    .filter((p) => p.metadata?.deletionTimestamp === undefined)
    .map((p) => String(p.metadata?.name))
    .sort();
}
