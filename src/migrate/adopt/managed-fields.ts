import { isDeepStrictEqual } from 'node:util';
import type { FieldKeys, FieldsV1, ManagedFieldsEntry } from './model.js';
import { UNMANAGED_MANAGER } from '../../rules/vocabulary.js';

/** The union of two field sets (what either owns). Pure. */
export function unionFields(a: FieldsV1 | undefined, b: FieldsV1 | undefined): FieldsV1 {
  if (a === undefined) return b ?? {};
  if (b === undefined) return a;
  const out: Record<string, FieldsV1> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = unionFields(a[k], v);
  return out;
}

/** Who gives fields, who takes them, and which owner references the same call removes. */
export interface HandOver {
  /** The old operator's own field managers: only their entries on the main resource are handed over. */
  readonly operatorManagers: readonly string[];
  /** The GitOps tool's field manager: takes them into its Apply entry. */
  readonly fieldManager: string;
  /** The uids of the owner references the same call removes (the old resources'): no manager keeps them. */
  readonly detached: ReadonlySet<string>;
  /**
   * Fields (paths of field-set keys) no GitOps manager may take, because the render leaves them as they are live:
   * the operator's go to {@link UNMANAGED_MANAGER} instead, so no apply changes them.
   * @default - none
   */
  readonly unmanaged?: readonly FieldKeys[];
}

const METADATA = 'f:metadata';
const OWNER_REFERENCES = 'f:ownerReferences';

/** The uid of an ownerReferences key (`k:{"uid":"…"}`), or undefined for any other key. Pure. */
function ownerUid(key: string): string | undefined {
  if (!key.startsWith('k:')) return undefined;
  try {
    const k = JSON.parse(key.slice(2)) as unknown;
    return typeof k === 'object' && k !== null && 'uid' in k ? String(k.uid) : undefined;
  } catch {
    return undefined;
  }
}

/** `fields` without `key`. Pure. */
function without(fields: FieldsV1, key: string): FieldsV1 {
  return Object.fromEntries(Object.entries(fields).filter(([k]) => k !== key));
}

/** `fields` with `f:metadata` set to `metadata`, or without it when `metadata` holds nothing. Pure. */
function withMetadata(fields: FieldsV1, metadata: FieldsV1 | undefined): FieldsV1 {
  const rest = without(fields, METADATA);
  return metadata === undefined || Object.keys(metadata).length === 0
    ? rest
    : { ...rest, [METADATA]: metadata };
}

/**
 * A field set split at `metadata.ownerReferences`: `owners` holds the entries of owner references not in `detached`
 * (undefined when none is left: the list alone is not kept), `rest` every other field. The entries of `detached` are
 * in neither (the same call removes them from the object). Pure.
 */
export function splitOwnerReferences(
  fields: FieldsV1,
  detached: ReadonlySet<string>,
): { owners: FieldsV1 | undefined; rest: FieldsV1 } {
  const metadata = fields[METADATA];
  const refs = metadata?.[OWNER_REFERENCES];
  if (metadata === undefined || refs === undefined) return { owners: undefined, rest: fields };
  const rest = withMetadata(fields, without(metadata, OWNER_REFERENCES));
  const kept = Object.entries(refs).filter(([k]) => {
    const uid = ownerUid(k);
    return uid !== undefined && !detached.has(uid);
  });
  if (kept.length === 0) return { owners: undefined, rest };
  const list = { ...('.' in refs ? { '.': {} } : {}), ...Object.fromEntries(kept) };
  return { owners: { [METADATA]: { [OWNER_REFERENCES]: list } }, rest };
}

/** `fields` without the owner references of `detached` (and without what that leaves empty). Pure. */
function withoutDetached(fields: FieldsV1, detached: ReadonlySet<string>): FieldsV1 {
  const refs = fields[METADATA]?.[OWNER_REFERENCES];
  if (refs === undefined || !Object.keys(refs).some((k) => detached.has(ownerUid(k) ?? ''))) return fields;
  const { owners, rest } = splitOwnerReferences(fields, detached);
  return owners === undefined ? rest : withMetadata(rest, { ...rest[METADATA], ...owners[METADATA] });
}

/** Whether an entry is one of the old operator's on the main resource (status entries stay where they are). Pure. */
function isOperators(e: ManagedFieldsEntry, h: HandOver): boolean {
  return (
    h.operatorManagers.includes(e.manager ?? '') &&
    (e.subresource ?? '') === '' &&
    !(e.manager === h.fieldManager && e.operation === 'Apply')
  );
}

/**
 * The managedFields after detaching `h.detached` and handing the old operator's fields to the GitOps manager, as
 * Flux's `PatchReplaceFieldsManagers` (kustomize-controller `--override-manager`) does, but only what the operator
 * itself set: each entry of an operator manager on the main resource gives its fields to the GitOps manager's Apply
 * entry for the same apiVersion (made if missing), except the owner references of other owners, which it keeps (a
 * GitOps apply that owned them would remove them), and the fields of `h.unmanaged`, which go to the Update entry
 * of {@link UNMANAGED_MANAGER} (made if missing). No manager keeps the detached owner references. Every other
 * entry (another manager's, a status entry) is otherwise unchanged. Undefined when nothing changes. Pure.
 */
export function handOver(
  entries: readonly ManagedFieldsEntry[],
  h: HandOver,
): ManagedFieldsEntry[] | undefined {
  const split = entries.map((e) => splitEntry(e, h));
  const out = split.flatMap((x) => (x.keep === undefined ? [] : [x.keep]));
  for (const x of split) {
    if (x.give === undefined) continue;
    const { taken, rest } = takeAll(x.give.fieldsV1 ?? {}, h.unmanaged ?? []);
    if (Object.keys(rest).length > 0) takeInto(out, { ...x.give, fieldsV1: rest }, h.fieldManager, 'Apply');
    if (taken !== undefined) takeInto(out, { ...x.give, fieldsV1: taken }, UNMANAGED_MANAGER, 'Update');
  }
  return isDeepStrictEqual(out, entries) ? undefined : out;
}

/** `fields` split at each path of `paths`: what lies at or below one (`taken`), and the rest. Pure. */
function takeAll(fields: FieldsV1, paths: readonly FieldKeys[]): { taken?: FieldsV1; rest: FieldsV1 } {
  let rest = fields;
  let taken: FieldsV1 | undefined;
  for (const path of paths) {
    const split = take(rest, path);
    rest = split.rest;
    if (split.taken !== undefined) taken = unionFields(taken, split.taken);
  }
  return { ...(taken === undefined ? {} : { taken }), rest };
}

/** `fields` split at `path`: the subtree there (wrapped in its path), and the rest (emptied keys removed). Pure. */
function take(fields: FieldsV1, path: FieldKeys): { taken?: FieldsV1; rest: FieldsV1 } {
  const [key, ...below] = path;
  const child = key === undefined ? undefined : fields[key];
  if (key === undefined || child === undefined) return { rest: fields };
  if (below.length === 0) return { taken: { [key]: child }, rest: without(fields, key) };
  const inner = take(child, below);
  if (inner.taken === undefined) return { rest: fields };
  const rest = Object.keys(inner.rest).length === 0 ? without(fields, key) : { ...fields, [key]: inner.rest };
  return { taken: { [key]: inner.taken }, rest };
}

/**
 * One entry split in what stays with its manager (`keep`, none when nothing is left) and what the GitOps manager
 * takes (`give`: the rest of an operator's entry on the main resource, when any). Pure.
 */
function splitEntry(
  e: ManagedFieldsEntry,
  h: HandOver,
): { keep?: ManagedFieldsEntry; give?: ManagedFieldsEntry } {
  if (e.fieldsV1 === undefined) return { keep: e };
  if (!isOperators(e, h)) {
    const fields = withoutDetached(e.fieldsV1, h.detached);
    if (fields === e.fieldsV1) return { keep: e };
    return Object.keys(fields).length === 0 ? {} : { keep: { ...e, fieldsV1: fields } };
  }
  const { owners, rest } = splitOwnerReferences(e.fieldsV1, h.detached);
  return {
    ...(owners === undefined ? {} : { keep: { ...e, fieldsV1: owners } }),
    ...(Object.keys(rest).length === 0 ? {} : { give: { ...e, fieldsV1: rest } }),
  };
}

/** Adds `e`'s fields to `manager`'s entry of `operation` and `e`'s apiVersion in `out` (made if missing). */
function takeInto(
  out: ManagedFieldsEntry[],
  e: ManagedFieldsEntry,
  manager: string,
  operation: 'Apply' | 'Update',
): void {
  const i = out.findIndex(
    (x) =>
      x.manager === manager &&
      x.operation === operation &&
      x.apiVersion === e.apiVersion &&
      (x.subresource ?? '') === '',
  );
  const target = out[i];
  if (target === undefined)
    out.push({
      manager,
      operation,
      apiVersion: e.apiVersion,
      ...(e.time === undefined ? {} : { time: e.time }),
      fieldsType: 'FieldsV1',
      fieldsV1: e.fieldsV1 ?? {},
    });
  else out[i] = { ...target, fieldsV1: unionFields(target.fieldsV1, e.fieldsV1) };
}
