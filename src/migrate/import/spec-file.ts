import { createHash } from 'node:crypto';
import { toYaml } from '../../output/yaml.js';
import type { Manifest } from '../../rules/manifest.js';
import { LAST_APPLIED_ANNOTATION } from '../../rules/vocabulary.js';
import type { ImportedExposure } from './exposure.js';
import type { Pins } from './pins.js';

/** Annotations that are the operator's or kubectl's bookkeeping, not the user's (named apart in the report). */
export const BOOKKEEPING: readonly string[] = ['spec', LAST_APPLIED_ANNOTATION];

/** The resource's own annotations, which import does not copy into its spec (bookkeeping ones aside), sorted. Pure. */
export function annotationsLeft(cr: Manifest): string[] {
  return Object.keys((cr.metadata?.annotations ?? {}) as Record<string, string>)
    .filter((k) => !BOOKKEEPING.includes(k))
    .sort();
}

/** The longest file name most file systems take, in bytes. */
const NAME_MAX = 255;

/**
 * The file an imported resource goes to in the chart: `<kind>_<group>_<namespace>_<name>.yaml` (no namespace part
 * for a cluster-scoped kind; `core` for the core group), kind in lower case. `_` occurs in no kind, group,
 * namespace or name, so no two resources share a file; a name too long for the file system is cut and ends in a
 * hash of the whole. Pure.
 */
export function specFileName(cr: Manifest): string {
  const apiVersion = String(cr.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : 'core';
  const ns = cr.metadata?.namespace as string | undefined;
  const parts = [
    String(cr.kind).toLowerCase(),
    group,
    ...(ns === undefined ? [] : [ns]),
    String(cr.metadata?.name),
  ];
  const whole = `${parts.join('_')}.yaml`;
  if (Buffer.byteLength(whole) <= NAME_MAX) return whole;
  const hash = createHash('sha256').update(whole).digest('hex').slice(0, 16);
  return `${whole.slice(0, NAME_MAX - hash.length - '_.yaml'.length)}_${hash}.yaml`;
}

/**
 * The spec file of a live resource: apiVersion, kind, name, namespace, the user's labels, the spec verbatim, and the
 * adoption pins; status, uid, resourceVersion, managedFields, finalizers and annotations dropped (the resource's own
 * annotations are named in the report, see {@link annotationsLeft}), and the exposure read from a live HTTPRoute
 * (`exposure`, `gateway`) when there is one. Byte-stable: the same resource imports to the same bytes. Pure.
 */
export function specFileText(cr: Manifest, pins: Pins, exposure: ImportedExposure = {}): string {
  const m = cr.metadata ?? {};
  const labels = (m.labels ?? {}) as Record<string, string>;
  // The resource's own annotations stay on it: a spec's annotations go onto every object it renders, which no seed
  // operator did (migration.md §8 row 6; docs/decisions.md).
  const metadata = {
    name: m.name,
    ...(m.namespace === undefined ? {} : { namespace: m.namespace }),
    ...(Object.keys(labels).length === 0 ? {} : { labels: sorted(labels) }),
  };
  const doc = {
    apiVersion: cr.apiVersion,
    kind: cr.kind,
    metadata,
    spec: cr.spec ?? {},
    ...(exposure.exposure === undefined ? {} : { exposure: exposure.exposure }),
    ...(exposure.gateway === undefined ? {} : { gateway: exposure.gateway }),
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
