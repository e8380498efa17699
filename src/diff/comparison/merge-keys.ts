/**
 * Lists Kubernetes merges by key (the `patchMergeKey`s of strategic merge patch, as `kubectl apply` and Argo CD
 * use them), so `specforge diff` matches their items by that key and a path reads
 * `spec.template.spec.containers[name=web].image` instead of `containers[0]`. Other lists are atomic: matched by
 * position. A table, not code: one row per list.
 */
interface MergeKeyRow {
  /** The list's path with positions left out, matched at its end (a pod spec sits under several prefixes). */
  readonly list: string;
  readonly key: string;
  /** `group/Kind` the row is limited to (core group empty: `/Service`); every kind when absent. */
  readonly kind?: string;
  /** Whether `list` is the whole path from the object's root, not its end. */
  readonly exact?: boolean;
}

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'];

const ROWS: readonly MergeKeyRow[] = [
  ...CONTAINER_LISTS.flatMap((c): MergeKeyRow[] => [
    { list: c, key: 'name' },
    { list: `${c}[].env`, key: 'name' },
    { list: `${c}[].ports`, key: 'containerPort' },
    { list: `${c}[].volumeMounts`, key: 'mountPath' },
    { list: `${c}[].volumeDevices`, key: 'devicePath' },
  ]),
  { list: 'volumes', key: 'name' },
  { list: 'imagePullSecrets', key: 'name' },
  { list: 'hostAliases', key: 'ip' },
  { list: 'resourceClaims', key: 'name' },
  { list: 'topologySpreadConstraints', key: 'topologyKey' },
  { list: 'spec.ports', key: 'port', kind: '/Service', exact: true },
  { list: 'spec.versions', key: 'name', kind: 'apiextensions.k8s.io/CustomResourceDefinition', exact: true },
];

/**
 * The merge key of the list at `pattern` (a path without positions) in an object of `kind` (`group/Kind`), or
 * undefined for a list matched by position.
 */
export function mergeKeyOf(pattern: string, kind: string): string | undefined {
  for (const row of ROWS) {
    if (row.kind !== undefined && row.kind !== kind) continue;
    const matches = row.exact === true ? pattern === row.list : endsWithList(pattern, row.list);
    if (matches) return row.key;
  }
  return undefined;
}

function endsWithList(pattern: string, list: string): boolean {
  return pattern === list || pattern.endsWith(`.${list}`);
}
