import { toYaml } from '../output/yaml.js';
import type { Obj } from '../rules/objects.js';
import type { Pins } from './pins.js';

/** Annotations that are the operator's or kubectl's bookkeeping, not the user's: never imported. */
const BOOKKEEPING = ['spec', 'kubectl.kubernetes.io/last-applied-configuration'];

/** The file an imported resource goes to in the chart: `<kind>.<namespace>.<name>.yaml` (`<kind>.<name>.yaml`). */
export function specFileName(cr: Obj): string {
  const kind = String(cr.kind).toLowerCase();
  const ns = cr.metadata?.namespace;
  return ns === undefined ? `${kind}.${cr.metadata?.name}.yaml` : `${kind}.${ns}.${cr.metadata?.name}.yaml`;
}

/**
 * The spec file of a live resource: apiVersion, kind, name, namespace, the user's labels and annotations, the spec
 * verbatim, and the adoption pins; status, uid, resourceVersion, managedFields, finalizers and bookkeeping
 * annotations dropped. Byte-stable: the same resource imports to the same bytes. Pure.
 */
export function specFileText(cr: Obj, pins: Pins): string {
  const m = cr.metadata ?? {};
  const annotations = Object.fromEntries(
    Object.entries((m.annotations ?? {}) as Record<string, string>).filter(([k]) => !BOOKKEEPING.includes(k)),
  );
  const labels = (m.labels ?? {}) as Record<string, string>;
  const metadata = {
    name: m.name,
    ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
    ...(Object.keys(labels).length === 0 ? {} : { labels: sorted(labels) }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations: sorted(annotations) }),
  };
  const doc = {
    apiVersion: cr.apiVersion,
    kind: cr.kind,
    metadata,
    spec: cr.spec ?? {},
    ...(Object.keys(pins).length === 0 ? {} : { adopt: pins }),
  };
  const where = m.namespace === undefined ? String(m.name) : `${m.namespace}/${m.name}`;
  return `# Imported by specforge import from ${cr.kind} ${where}. The adopt block pins what its operator made.\n${toYaml(doc)}`;
}

function sorted(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k] ?? '']),
  );
}
