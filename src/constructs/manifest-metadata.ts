import { ApiObjectMetadataDefinition, type OwnerReference } from 'cdk8s';
import { plainCopy } from './plain.js';

/** What cdk8s' metadata escape hatches added to an object, in call order. */
export interface MetadataEdits {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly finalizers: string[];
  readonly ownerReferences: OwnerReference[];
  /** `metadata.add(key, value)`: any other metadata field. */
  readonly other: Record<string, unknown>;
}

/** The metadata fields with a hatch of their own; `metadata.add` on them would be ignored by cdk8s. */
const OWN_HATCH: Readonly<Record<string, string>> = {
  name: 'the name a specforge construct is given (its `name` prop)',
  namespace: 'the namespace a specforge construct is given (its `namespace` prop)',
  labels: '`metadata.addLabel(key, value)`',
  annotations: '`metadata.addAnnotation(key, value)`',
  finalizers: '`metadata.addFinalizers(...finalizers)`',
  ownerReferences: '`metadata.addOwnerReference(owner)`',
};

/**
 * The metadata of a {@link ManifestObject}: cdk8s' own class (so `getLabel` and every hatch behave as on any
 * `ApiObject`), which also records what the hatches add, for the manifest's `toJson()` to merge.
 */
export class ManifestMetadata extends ApiObjectMetadataDefinition {
  /** Everything added since construction; undefined while nothing was. */
  public recorded: MetadataEdits | undefined;

  private edit(): MetadataEdits {
    this.recorded ??= { labels: {}, annotations: {}, finalizers: [], ownerReferences: [], other: {} };
    return this.recorded;
  }

  public override addLabel(key: string, value: string): void {
    super.addLabel(key, value);
    this.edit().labels[key] = value;
  }

  public override addAnnotation(key: string, value: string): void {
    super.addAnnotation(key, value);
    this.edit().annotations[key] = value;
  }

  public override addFinalizers(...finalizers: string[]): void {
    super.addFinalizers(...finalizers);
    this.edit().finalizers.push(...finalizers);
  }

  public override addOwnerReference(owner: OwnerReference): void {
    super.addOwnerReference(owner);
    this.edit().ownerReferences.push(owner);
  }

  /**
   * Adds any other metadata field. Throws for a field with a hatch of its own (cdk8s would drop the value without
   * a word).
   */
  public override add(key: string, value: unknown): void {
    const instead = Object.hasOwn(OWN_HATCH, key) ? OWN_HATCH[key] : undefined;
    if (instead !== undefined)
      throw new Error(
        `specforge: metadata.add('${key}', …) is not supported on specforge's objects (cdk8s would ignore it); use ${instead}.`,
      );
    super.add(key, value);
    this.edit().other[key] = value;
  }
}

/**
 * `manifest` with `edits` merged into its metadata: the manifest's own fields, labels and annotations keep their
 * place and order (an added value replaces theirs), added ones follow; finalizers and owner references are
 * appended. Pure; the manifest is not changed.
 */
export function withMetadataEdits<M extends { readonly metadata: object }>(
  manifest: M,
  edits: MetadataEdits,
): M {
  const own = manifest.metadata as Record<string, unknown>;
  const metadata: Record<string, unknown> = { ...own, ...edits.other };
  merge(metadata, 'labels', edits.labels);
  merge(metadata, 'annotations', edits.annotations);
  append(metadata, 'finalizers', edits.finalizers);
  append(metadata, 'ownerReferences', edits.ownerReferences);
  return { ...manifest, metadata: plainCopy(metadata) };
}

function merge(metadata: Record<string, unknown>, field: string, added: Record<string, string>): void {
  if (Object.keys(added).length === 0) return;
  metadata[field] = { ...(metadata[field] as Record<string, string> | undefined), ...added };
}

function append(metadata: Record<string, unknown>, field: string, added: readonly unknown[]): void {
  if (added.length === 0) return;
  metadata[field] = [...((metadata[field] as unknown[] | undefined) ?? []), ...added];
}
