import { apiGroupOf, type Manifest } from '../manifest.js';
import { isMapping, structuralOf, type Structural } from './structural.js';

/** A CRD version as the checks need it: served or not, and its schema. */
export interface CrdVersion {
  readonly served: boolean;
  readonly schema: Structural | undefined;
}

/** A CRD: its name (`plural.group`) and its versions by name. */
export interface CrdEntry {
  readonly name: string;
  readonly versions: ReadonlyMap<string, CrdVersion>;
}

/** The `group/Kind` key of a kind. */
export function kindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/** The `group/Kind` key of an object's kind. */
export function kindKeyOf(o: Manifest): string {
  return kindKey(apiGroupOf(String(o.apiVersion)), String(o.kind));
}

/** Whether `o` is an apiextensions.k8s.io/v1 CustomResourceDefinition. */
export function isCrd(o: Manifest): boolean {
  return o.kind === 'CustomResourceDefinition' && o.apiVersion === 'apiextensions.k8s.io/v1';
}

/** A CRD object's entry, or undefined when it is not one the checks can read (its own checks say why). */
export function crdEntry(crd: Manifest): { key: string; entry: CrdEntry } | undefined {
  const spec: unknown = crd.spec;
  if (!isMapping(spec) || typeof spec.group !== 'string' || !isMapping(spec.names)) return undefined;
  if (typeof spec.names.kind !== 'string' || !Array.isArray(spec.versions)) return undefined;
  const versions = new Map<string, CrdVersion>();
  for (const v of spec.versions as unknown[])
    if (isMapping(v) && typeof v.name === 'string') versions.set(v.name, versionOfCrd(v));
  return { key: kindKey(spec.group, spec.names.kind), entry: { name: String(crd.metadata?.name), versions } };
}

function versionOfCrd(v: Record<string, unknown>): CrdVersion {
  const schema =
    isMapping(v.schema) && isMapping(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined;
  return { served: v.served === true, schema: schema === undefined ? undefined : structuralOf(schema) };
}

/** The version of an apiVersion (`g/v1` → `v1`). */
export function versionOf(apiVersion: unknown): string {
  const s = String(apiVersion);
  return s.slice(s.indexOf('/') + 1);
}
