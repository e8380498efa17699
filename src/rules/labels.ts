/**
 * The label set every rendered object carries (design §2, docs/decisions.md "Labels and selector").
 *
 * - `app: <name>`: the seeds' own label, and the whole Deployment selector (see {@link selectorLabels}).
 * - `app.kubernetes.io/name`, `/instance`: the spec's `metadata.name`.
 * - `app.kubernetes.io/managed-by: specforge`.
 * - `app.kubernetes.io/part-of`: the chart (environment or team) the spec belongs to.
 * - `specforge.dev/spec-kind`, `specforge.dev/spec-name`: the parent spec, so
 *   `kubectl get all -l specforge.dev/spec-name=<name>` finds everything one spec made.
 */
export const MANAGED_BY = 'specforge';
export const SPEC_KIND_LABEL = 'specforge.dev/spec-kind';
export const SPEC_NAME_LABEL = 'specforge.dev/spec-name';

/** Who an object belongs to: the spec that made it and the chart it lives in. */
export interface Owner {
  /** The spec's kind, e.g. `AppService`. */
  readonly kind: string;
  /** The spec's `metadata.name`. */
  readonly name: string;
  /** The chart's name; becomes `app.kubernetes.io/part-of`. */
  readonly partOf: string;
}

/** The full label set for every object one spec makes. Pure; keys in a fixed order. */
export function ownerLabels(owner: Owner): Record<string, string> {
  return {
    app: owner.name,
    'app.kubernetes.io/instance': owner.name,
    'app.kubernetes.io/managed-by': MANAGED_BY,
    'app.kubernetes.io/name': owner.name,
    'app.kubernetes.io/part-of': owner.partOf,
    [SPEC_KIND_LABEL]: owner.kind.toLowerCase(),
    [SPEC_NAME_LABEL]: owner.name,
  };
}

/**
 * The Deployment selector: `{ app: <name> }`, exactly what the seed operators used, so a Deployment they created
 * can be taken over by the rendered one without touching its immutable selector. Minimal and stable: it never
 * includes labels that may change (chart, version).
 */
export function selectorLabels(name: string): Record<string, string> {
  return { app: name };
}
