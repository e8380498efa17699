/** The objects dist/ holds, per chart, read back from the files (what a GitOps tool is given). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export type Manifest = Record<string, any>;

/** The chart directories of a dist/ (dist/_argocd and dist/_flux hold GitOps objects, not charts). */
export function distCharts(dist: string): string[] {
  return readdirSync(dist)
    .filter((c) => !c.startsWith('_'))
    .sort();
}

/**
 * The charts of a dist/ the generated GitOps objects deploy: all but those charts/gitops.yaml (beside the dist/,
 * in the repository) lists under `exclude`.
 */
export function deployedCharts(dist: string): string[] {
  const settings = join(dist, '..', 'charts', 'gitops.yaml');
  const exclude: unknown = existsSync(settings)
    ? (parse(readFileSync(settings, 'utf8')) as { exclude?: unknown } | null)?.exclude
    : undefined;
  const excluded = new Set(Array.isArray(exclude) ? exclude.map(String) : []);
  return distCharts(dist).filter((c) => !excluded.has(c));
}

/** Every object of a dist/ directory's YAML files but its kustomization.yaml. */
export function distObjects(dir: string): Manifest[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as Manifest));
}

/** `group/Kind namespace/name`. */
export function idOf(o: Manifest): string {
  const group = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/')[0] : '';
  return `${group}/${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

/** Objects by id, sorted, for whole-set comparisons. */
export function byId(objects: readonly Manifest[]): Record<string, Manifest> {
  return Object.fromEntries(
    [...objects].sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1)).map((o) => [idOf(o), o]),
  );
}

/** A copy of `o` without the given metadata labels and annotations (empty maps dropped). */
export function without(
  o: Manifest,
  labels: readonly string[],
  annotations: readonly string[] = [],
): Manifest {
  const copy = structuredClone(o);
  for (const [field, keys] of [
    ['labels', labels],
    ['annotations', annotations],
  ] as const) {
    const map = copy.metadata?.[field];
    if (map === undefined) continue;
    for (const k of keys) delete map[k];
    if (Object.keys(map).length === 0) delete copy.metadata[field];
  }
  return copy;
}
