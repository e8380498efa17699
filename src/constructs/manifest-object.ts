import { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ManifestOf } from '../rules/manifest.js';
import { plainCopy } from './plain.js';

/**
 * An `ApiObject` whose manifest is built up front by a pure function and returned as is by `toJson()`.
 *
 * cdk8s' generic `ApiObject.toJson()` resolves tokens and sanitises every value, about 100 µs per object
 * (docs/benchmarks.md); the specforge constructs build plain, fully-resolved manifests, so that work buys nothing
 * and would dominate a 25,000-object render. The object is immutable: `addJsonPatch` and `metadata.add*` are
 * not applied; compose a new manifest instead.
 */
export class ManifestObject extends ApiObject {
  constructor(
    scope: Construct,
    id: string,
    private readonly manifest: ManifestOf,
  ) {
    super(scope, id, {
      apiVersion: manifest.apiVersion,
      kind: manifest.kind,
      metadata: { name: manifest.metadata.name, namespace: manifest.metadata.namespace },
    });
    this.manifest = plainCopy(manifest);
  }

  private extraAnnotations: Record<string, string> | undefined;

  /**
   * Adds annotations to the manifest (the ordering annotations of {@link addSyncOrder} among them); the manifest's
   * own keep their place, new ones follow.
   */
  public addAnnotations(annotations: Readonly<Record<string, string>>): void {
    this.extraAnnotations = { ...this.extraAnnotations, ...annotations };
  }

  /** The manifest exactly as built, with any annotations added since. */
  public override toJson(): ManifestOf {
    const extra = this.extraAnnotations;
    if (extra === undefined) return this.manifest;
    const m = this.manifest as ManifestOf<{ metadata: { annotations?: Record<string, string> } }>;
    return {
      ...m,
      metadata: { ...m.metadata, annotations: { ...m.metadata.annotations, ...extra } },
    } as ManifestOf;
  }
}
