/**
 * The objects of rendered files: every YAML document of `<chart>/**.yaml` under dist/ that is a Kubernetes object
 * (a mapping with `apiVersion`, `kind` and `metadata.name`), less the kustomization every chart directory has.
 * Identity as the API server has it (group, kind, namespace, name), within the chart that carries it. Pure: text in.
 */
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import type { Obj } from '../rules/objects.js';
import { groupOf } from '../rules/objects.js';
import type { ManifestObject, ObjectRef } from './model.js';

/** Whether a path under dist/ can hold objects: a `.yaml`/`.yml` file inside a chart directory. */
export function isManifestPath(path: string): boolean {
  return path.includes('/') && /\.ya?ml$/i.test(path);
}

/** The chart of a path under dist/: its first directory. */
export function chartOf(path: string): string {
  return path.slice(0, path.indexOf('/'));
}

/**
 * The objects of one file. `where` names the side in messages (`dist`); a file that is not YAML is an error naming
 * it (a hand edit of dist/), not a stack trace.
 */
export function parseManifestFile(path: string, text: string, where: string): ManifestObject[] {
  let docs: unknown[];
  try {
    docs = loadAll(text, { schema: CORE_SCHEMA, filename: path });
  } catch (e) {
    const reason = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    throw new Error(`${where}/${path} cannot be compared: it is not valid YAML (${reason}).`);
  }
  const chart = chartOf(path);
  const out: ManifestObject[] = [];
  for (const doc of docs)
    if (isObject(doc) && !isKustomization(doc)) out.push({ chart, file: path, json: doc });
  return out;
}

/** The API server's name of an object, with its chart. */
export function refOf(o: ManifestObject): ObjectRef {
  const ns: unknown = o.json.metadata?.namespace;
  return {
    chart: o.chart,
    group: groupOf(o.json),
    apiVersion: String(o.json.apiVersion),
    kind: String(o.json.kind),
    ...(typeof ns === 'string' && ns !== '' ? { namespace: ns } : {}),
    name: String(o.json.metadata?.name),
  };
}

/** A key equal for the same object on both sides: chart, group, kind, namespace, name (not the version). */
export function refKey(ref: ObjectRef): string {
  return `${ref.chart}\u0000${ref.group}\u0000${ref.kind}\u0000${ref.namespace ?? ''}\u0000${ref.name}`;
}

/** `Kind namespace/name`, or `Kind name` for an object without a namespace. */
export function describeRef(ref: ObjectRef): string {
  return ref.namespace === undefined ? `${ref.kind} ${ref.name}` : `${ref.kind} ${ref.namespace}/${ref.name}`;
}

/** `group/Kind` (`apps/Deployment`, `/Service`), as the rule tables name kinds. */
export function kindKey(ref: { readonly group: string; readonly kind: string }): string {
  return `${ref.group}/${ref.kind}`;
}

function isObject(doc: unknown): doc is Obj {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
  const o = doc as Obj;
  const meta: unknown = o.metadata;
  return (
    typeof o.apiVersion === 'string' &&
    typeof o.kind === 'string' &&
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as Obj).name === 'string'
  );
}

function isKustomization(o: Obj): boolean {
  return o.kind === 'Kustomization' && String(o.apiVersion).startsWith('kustomize.config.k8s.io/');
}
