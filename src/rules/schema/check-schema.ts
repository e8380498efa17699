import { formatPath } from '../field-path.js';
import type { Manifest } from '../manifest.js';
import type { Problem } from '../problem.js';
import { decodeProblems } from './decode.js';
import { PlanCompiler, type PlanNode } from './plan.js';
import { groupOfVersion, vendoredDocument, vendoredIndex } from './vendored.js';
import { describeValue } from '../problem.js';

/**
 * The schema check of an object of a built-in kind: it is decoded as the API server of the vendored release decodes
 * it (src/rules/schema/decode.ts) against that kind's schema in the server's own OpenAPI v3 documents
 * (schemas/vendor/kubernetes/). An object of a kind those documents do not hold (a custom resource, or a version the
 * release does not serve) is not checked here. Plans are compiled per kind the first time one is seen.
 */

const compilers = new Map<string, PlanCompiler | null>();
const plans = new Map<string, PlanNode | null>();

/**
 * The plan of `apiVersion` `kind`, or undefined when it is not a built-in kind of the vendored release, or not one
 * of objects to create ({@link NOT_OBJECTS}: `ConfigMapList`, `Status`, whose schemas the documents hold too).
 */
export function builtInPlan(apiVersion: unknown, kind: unknown): PlanNode | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const key = `${apiVersion} ${kind}`;
  const known = plans.get(key);
  if (known !== undefined) return known ?? undefined;
  const plan = NOT_OBJECTS.test(kind) ? undefined : compilerOf(apiVersion)?.kind(kind);
  plans.set(key, plan ?? null);
  return plan;
}

function compilerOf(apiVersion: string): PlanCompiler | undefined {
  const known = compilers.get(apiVersion);
  if (known !== undefined) return known ?? undefined;
  const doc = vendoredDocument(apiVersion);
  const compiler = doc === undefined ? undefined : new PlanCompiler(doc);
  compilers.set(apiVersion, compiler ?? null);
  return compiler;
}

/** Whether the vendored documents hold `apiVersion` `kind` (so its objects get the schema check). */
export function isBuiltInKind(apiVersion: unknown, kind: unknown): boolean {
  return builtInPlan(apiVersion, kind) !== undefined;
}

/**
 * The schema problems of `o`, paths printed. An object of a group the release serves must be of a version and kind it
 * serves (the API server has no type to decode it into: `apps/v1beta1`, a misspelt kind); any other group is not
 * checked here (a custom resource's, an aggregated API's).
 */
export function checkSchema(o: Manifest): Problem<string>[] {
  const plan = builtInPlan(o.apiVersion, o.kind);
  if (plan === undefined) return unserved(o);
  const found = decodeProblems(plan, o);
  return found.length === 0 ? [] : found.map((p) => ({ ...p, path: formatPath(p.path) }));
}

/** Kinds of a document that are no objects to create: lists, and the API machinery's own records. */
const NOT_OBJECTS = /List$|^(DeleteOptions|WatchEvent|Status)$/;

/**
 * The problem of an object of a served group whose version or kind the release does not serve, or whose kind is
 * no object to create: a list (`v1 List`, `ConfigMapList`: kubectl's envelopes, which it unpacks into their items
 * before it sends any; the API server stores no list) or a record of the API machinery's own.
 */
function unserved(o: Manifest): Problem<string>[] {
  const { apiVersion, kind } = o;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return [];
  const { release, served, groups } = vendoredIndex();
  if (NOT_OBJECTS.test(kind) && served.has(apiVersion)) return [notAnObject(o, kind)];
  const group = groupOfVersion(apiVersion);
  if (!groups.has(group)) {
    // A custom resource's group has a dot (apiextensions refuses a CRD of any other): a dotless group the release
    // does not serve (extensions, settings.k8s.io's predecessors) is an API that is gone, not a custom resource.
    if (group.includes('.')) return [];
    return [
      {
        path: 'apiVersion',
        expected: `an API group kube-apiserver ${release} serves (${group} is not one, and a custom resource's group has a dot)`,
        found: describeValue(apiVersion),
      },
    ];
  }
  if (!served.has(apiVersion)) {
    const versions = [...served].filter((v) => groupOfVersion(v) === group).join(', ');
    return [
      {
        path: 'apiVersion',
        expected: `a version kube-apiserver ${release} serves for ${group === '' ? 'the core group' : group} (${versions})`,
        found: describeValue(apiVersion),
      },
    ];
  }
  const kinds = Object.keys(vendoredDocument(apiVersion)?.kinds ?? {}).filter((k) => !NOT_OBJECTS.test(k));
  return [
    {
      path: 'kind',
      expected: `a kind kube-apiserver ${release} serves in ${apiVersion} (${kinds.join(', ')})`,
      found: describeValue(kind),
    },
  ];
}

/** A list or an API machinery record where an object to create was expected. */
function notAnObject(o: Manifest, kind: string): Problem<string> {
  const items: unknown = o.items;
  if (!kind.endsWith('List'))
    return {
      path: 'kind',
      expected: `the kind of an object to create (${kind} is a record of the API machinery's own, which the API server stores no object of)`,
      found: describeValue(kind),
    };
  return {
    path: 'kind',
    expected: `the kind of an object to create (${kind} is kubectl's envelope of several objects, unpacked before they are sent: the API server stores no list)`,
    found: Array.isArray(items)
      ? `${describeValue(kind)} of ${items.length} item${items.length === 1 ? '' : 's'}`
      : describeValue(kind),
    hint: 'Add each of its items to the chart as an object of its own (with cdk8s, an ApiObject per item).',
  };
}
