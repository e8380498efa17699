import { ApiObject, JsonPatch } from 'cdk8s';
import type { Construct } from 'constructs';
import { ManifestMetadata, withMetadataEdits } from './manifest-metadata.js';
import type { ManifestOf } from '../rules/manifest.js';
import { plainCopy } from './plain.js';

/**
 * An `ApiObject` whose manifest is built up front by a pure function and returned as is by `toJson()`.
 *
 * cdk8s' generic `ApiObject.toJson()` resolves tokens and sanitises every value, about 100 µs per object
 * (docs/benchmarks.md); the specforge constructs build plain, fully-resolved manifests, so that work buys nothing
 * and would dominate a 25,000-object render. cdk8s' escape hatches still work: `metadata.addLabel`,
 * `addAnnotation`, `addFinalizers`, `addOwnerReference`, `add`, and `addJsonPatch` reach the emitted manifest
 * (labels and annotations after the manifest's own, which keep their place; JSON patches last, on the result).
 * Only an object nobody touched skips that work. Values given to the hatches are written as given: cdk8s tokens
 * (`Lazy`) are not resolved.
 */
export class ManifestObject extends ApiObject {
  private readonly manifest: ManifestOf;
  private readonly edits: ManifestMetadata;
  private jsonPatches: JsonPatch[] | undefined;

  /**
   * `instanceof ManifestObject` is true for a ManifestObject only. (cdk8s' `ApiObject` answers `instanceof` with
   * `ApiObject.isApiObject`, and subclasses inherit that answer: without this, every ApiObject would be one.)
   */
  public static override [Symbol.hasInstance](o: unknown): o is ManifestObject {
    return Function.prototype[Symbol.hasInstance].call(this, o);
  }

  constructor(scope: Construct, id: string, manifest: ManifestOf) {
    super(scope, id, {
      apiVersion: manifest.apiVersion,
      kind: manifest.kind,
      metadata: { name: manifest.metadata.name, namespace: manifest.metadata.namespace },
    });
    this.manifest = plainCopy(manifest);
    // cdk8s' metadata would add the Chart's namespace to cluster-scoped objects; this one holds the manifest's own
    // metadata (so `getLabel` answers), and records what the escape hatches add.
    this.edits = new ManifestMetadata({ ...this.manifest.metadata, apiObject: this });
    (this as { metadata: ApiObject['metadata'] }).metadata = this.edits;
  }

  /**
   * Adds annotations to the manifest (the ordering annotations of {@link addSyncOrder} among them); the manifest's
   * own keep their place, new ones follow. The same as `metadata.addAnnotation` for each.
   */
  public addAnnotations(annotations: Readonly<Record<string, string>>): void {
    for (const [key, value] of Object.entries(annotations)) this.metadata.addAnnotation(key, value);
  }

  /**
   * Applies RFC 6902 JSON patches to the manifest, after the metadata added through `metadata`.
   *
   * @param ops The JSON-Patch operations to apply.
   * @example
   * app.deployment.addJsonPatch(JsonPatch.add('/spec/replicas', 3));
   */
  public override addJsonPatch(...ops: JsonPatch[]): void {
    super.addJsonPatch(...ops);
    this.jsonPatches = [...(this.jsonPatches ?? []), ...ops];
  }

  /** The manifest exactly as built, with what the escape hatches added since. */
  public override toJson(): ManifestOf {
    const { recorded } = this.edits;
    const patches = this.jsonPatches;
    if (recorded === undefined && patches === undefined) return this.manifest;
    try {
      const edited = recorded === undefined ? this.manifest : withMetadataEdits(this.manifest, recorded);
      return patches === undefined ? edited : (JsonPatch.apply(plainCopy(edited), ...patches) as ManifestOf);
    } catch (e) {
      // The words of cdk8s' own ApiObject.toJson().
      throw new Error(
        `Failed serializing construct at path '${this.node.path}' with name '${this.name}': ${String(e)}`,
      );
    }
  }
}
