/**
 * The objects of rendered files: every YAML document of `<chart>/**.yaml` under dist/ that is a Kubernetes object
 * (a mapping with `apiVersion`, `kind` and `metadata.name`), less the kustomization every chart directory has.
 * Identity as the API server has it (group, kind, namespace, name), within the chart that carries it. Pure: text in.
 */
import { locateProblem, type LocatedProblem } from '../../rules/problem.js';
import { formatError } from '../../rules/problem-format.js';
import { readYamlDocuments, type ReadProblem } from '../../specs/yaml-read.js';
import { groupOf, type Manifest, type ManifestPart } from '../../rules/manifest.js';
import { KUSTOMIZE_CONFIG_GROUP } from '../../rules/vocabulary.js';
import type { DiffObject, ObjectRef } from './model.js';

/** Whether a path under dist/ can hold objects: a `.yaml`/`.yml` file inside a chart directory. */
export function isManifestPath(path: string): boolean {
  return path.includes('/') && /\.ya?ml$/i.test(path);
}

/** The chart of a path under dist/: its first directory. */
export function chartOf(path: string): string {
  return path.slice(0, path.indexOf('/'));
}

/** A rendered file that cannot be compared, as an error naming the file, where, what was expected and found. */
export class UnreadableManifest extends Error {
  constructor(
    readonly error: LocatedProblem,
    /** The side it belongs to (`dist`). */
    readonly where: string,
  ) {
    super(formatError(error));
    this.name = 'UnreadableManifest';
  }
}

/**
 * The objects of one file, read as spec files are (src/specs/yaml-read.ts: YAML 1.2, aliases at most 1,000 per
 * document and 3 MiB once expanded, YAML 1.1 readings refused). `where` names the side in messages (`dist`); a file
 * that is not YAML, or that breaks those limits (a hand edit of dist/), throws {@link UnreadableManifest}.
 */
export function parseManifestFile(path: string, text: string, where: string): DiffObject[] {
  const file = `${where}/${path}`;
  let read: ReturnType<typeof readYamlDocuments>;
  try {
    read = readYamlDocuments(text, file);
  } catch (e) {
    const reason = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
    throw new UnreadableManifest(
      {
        file,
        path: '',
        expected: 'YAML as specforge renders it',
        found: `text that is not valid YAML (${reason})`,
        hint: 'Render again (specforge render) to rewrite it.',
      },
      where,
    );
  }
  const problem = read.problems[0];
  if (problem !== undefined) throw new UnreadableManifest(problemError(file, text, problem), where);
  const chart = chartOf(path);
  const out: DiffObject[] = [];
  for (const doc of read.docs)
    if (isObject(doc) && !isKustomization(doc)) out.push({ chart, file: path, json: doc });
  return out;
}

function problemError(file: string, text: string, p: ReadProblem): LocatedProblem {
  const before = text.slice(0, p.offset);
  const line = before.split('\n').length;
  const hint = 'specforge never renders this: render again (specforge render) to rewrite the file.';
  return locateProblem(
    { ...p, hint },
    { file, document: p.document, line, column: p.offset - before.lastIndexOf('\n') },
  );
}

/** The API server's name of an object, with its chart. */
export function refOf(o: DiffObject): ObjectRef {
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

function isObject(doc: unknown): doc is Manifest {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false;
  const o = doc as Manifest;
  const meta: unknown = o.metadata;
  return (
    typeof o.apiVersion === 'string' &&
    typeof o.kind === 'string' &&
    typeof meta === 'object' &&
    meta !== null &&
    typeof (meta as ManifestPart).name === 'string'
  );
}

function isKustomization(o: Manifest): boolean {
  return o.kind === 'Kustomization' && String(o.apiVersion).startsWith(`${KUSTOMIZE_CONFIG_GROUP}/`);
}
