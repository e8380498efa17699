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
/** The Kubernetes recommended labels specforge writes (app.kubernetes.io/…). */
export const NAME_LABEL = 'app.kubernetes.io/name';
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const PART_OF_LABEL = 'app.kubernetes.io/part-of';
/** The label Pod Security admission reads the enforced level from. */
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

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
    [INSTANCE_LABEL]: owner.name,
    [MANAGED_BY_LABEL]: MANAGED_BY,
    [NAME_LABEL]: owner.name,
    [PART_OF_LABEL]: owner.partOf,
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
