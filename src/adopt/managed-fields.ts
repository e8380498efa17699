import type { FieldsV1, ManagedFieldsEntry } from './model.js';

/** The union of two field sets (what either owns). Pure. */
export function unionFields(a: FieldsV1 | undefined, b: FieldsV1 | undefined): FieldsV1 {
  if (a === undefined) return b ?? {};
  if (b === undefined) return a;
  const out: Record<string, FieldsV1> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = unionFields(a[k], v);
  return out;
}

/**
 * The managedFields after handing the old operator's fields to the GitOps manager, as Flux's
 * `PatchReplaceFieldsManagers` (kustomize-controller `--override-manager`) does: every entry of an operator manager
 * on the main resource goes, and its fields join the GitOps manager's Apply entry for the same apiVersion (made if
 * missing). Status-subresource entries stay. Undefined when nothing is to hand over. Pure.
 */
export function handOver(
  entries: readonly ManagedFieldsEntry[],
  operatorManagers: readonly string[],
  fieldManager: string,
): ManagedFieldsEntry[] | undefined {
  const isOld = (e: ManagedFieldsEntry): boolean =>
    operatorManagers.includes(e.manager ?? '') && (e.subresource ?? '') === '';
  const old = entries.filter(isOld);
  if (old.length === 0) return undefined;
  const kept = entries.filter((e) => !isOld(e));
  const out: ManagedFieldsEntry[] = [...kept];
  for (const e of old) {
    const i = out.findIndex(
      (x) =>
        x.manager === fieldManager &&
        x.operation === 'Apply' &&
        x.apiVersion === e.apiVersion &&
        (x.subresource ?? '') === '',
    );
    const target = out[i];
    if (target === undefined)
      out.push({
        manager: fieldManager,
        operation: 'Apply',
        apiVersion: e.apiVersion,
        ...(e.time === undefined ? {} : { time: e.time }),
        fieldsType: 'FieldsV1',
        fieldsV1: e.fieldsV1 ?? {},
      });
    else out[i] = { ...target, fieldsV1: unionFields(target.fieldsV1, e.fieldsV1) };
  }
  return out;
}
