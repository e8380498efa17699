import { handOver } from './managed-fields.js';
import { describe, type AdoptOptions, type AdoptState, type LiveObject, type Step } from './model.js';

const JSON_PATCH = 'application/json-patch+json';

/** A step, with what it changes in the state (so a plan can be computed without touching the cluster). */
interface Planned {
  readonly step: Step;
  readonly after: (s: AdoptState) => AdoptState;
}

/**
 * The next call of the cut-over for this state, in the only safe order (migration.md §3): detach every dependent
 * from the old resources (JSON patch with a `test` of the owner's uid), hand the operator's managed fields to the
 * GitOps manager (`test` of the resourceVersion), remove the old finalizers (`test` of the finalizer), delete the old
 * resources with `propagationPolicy: Orphan`, and, once none of its resources is left, the CRD. Undefined when
 * nothing is left to do. Pure: `adopt apply` reads the cluster again before every step, so a run killed anywhere
 * and started again continues where the cluster is.
 */
export function nextStep(state: AdoptState, options: AdoptOptions): Planned | undefined {
  return (
    detachStep(state) ??
    handOverStep(state, options) ??
    finalizerStep(state, options) ??
    deleteStep(state) ??
    crdStep(state)
  );
}

/** Every call `adopt apply` would make from this state, in order. Pure. */
export function plan(state: AdoptState, options: AdoptOptions): Step[] {
  const steps: Step[] = [];
  let s = state;
  for (let next = nextStep(s, options); next !== undefined; next = nextStep(s, options)) {
    steps.push(next.step);
    s = next.after(s);
    if (steps.length > 10_000) throw new Error('adopt plan does not converge');
  }
  return steps;
}

function replaceObject(s: AdoptState, o: LiveObject, next: LiveObject): AdoptState {
  return { ...s, dependents: s.dependents.map((d) => (d.path === o.path ? next : d)) };
}

function detachStep(state: AdoptState): Planned | undefined {
  const owners = new Map(state.crs.map((cr) => [cr.uid, cr]));
  for (const d of state.dependents) {
    const i = d.ownerReferences.findIndex((r) => owners.has(r.uid));
    const ref = d.ownerReferences[i];
    if (ref === undefined) continue;
    return {
      step: {
        does: `detach ${describe(d)} from ${ref.kind} ${ref.name} (ownerReference uid ${ref.uid})`,
        method: 'PATCH',
        path: d.path,
        contentType: JSON_PATCH,
        body: [
          { op: 'test', path: `/metadata/ownerReferences/${i}/uid`, value: ref.uid },
          { op: 'remove', path: `/metadata/ownerReferences/${i}` },
        ],
      },
      after: (s) =>
        replaceObject(s, d, { ...d, ownerReferences: d.ownerReferences.filter((_, j) => j !== i) }),
    };
  }
  return undefined;
}

function handOverStep(state: AdoptState, options: AdoptOptions): Planned | undefined {
  for (const d of state.dependents) {
    const fields = handOver(d.managedFields, options.operatorManagers, options.fieldManager);
    if (fields === undefined) continue;
    return {
      step: {
        does: `hand the fields of ${options.operatorManagers.join(', ')} on ${describe(d)} to ${options.fieldManager}`,
        method: 'PATCH',
        path: d.path,
        contentType: JSON_PATCH,
        body: [
          { op: 'test', path: '/metadata/resourceVersion', value: d.resourceVersion },
          { op: 'replace', path: '/metadata/managedFields', value: fields },
        ],
      },
      after: (s) => replaceObject(s, d, { ...d, managedFields: fields }),
    };
  }
  return undefined;
}

/** Finalizers of Kubernetes itself (an Orphan or foreground deletion in progress): never removed. */
const KUBERNETES_FINALIZERS = ['orphan', 'foregroundDeletion'];

function finalizerStep(state: AdoptState, options: AdoptOptions): Planned | undefined {
  for (const cr of state.crs) {
    const i = cr.finalizers.findIndex(
      (f) => options.operatorFinalizers.includes(f) && !KUBERNETES_FINALIZERS.includes(f),
    );
    const finalizer = cr.finalizers[i];
    if (finalizer === undefined) continue;
    return {
      step: {
        does: `remove finalizer ${finalizer} of ${describe(cr)} (its operator is stopped)`,
        method: 'PATCH',
        path: cr.path,
        contentType: JSON_PATCH,
        body: [
          { op: 'test', path: `/metadata/finalizers/${i}`, value: finalizer },
          { op: 'remove', path: `/metadata/finalizers/${i}` },
        ],
      },
      after: (s) => ({
        ...s,
        crs: s.crs.map((c) =>
          c.path === cr.path ? { ...c, finalizers: c.finalizers.filter((_, j) => j !== i) } : c,
        ),
      }),
    };
  }
  return undefined;
}

function deleteStep(state: AdoptState): Planned | undefined {
  const cr = state.crs.find((c) => c.deleting !== true);
  if (cr === undefined) return undefined;
  return {
    step: {
      does: `delete ${describe(cr)}, leaving what it made (propagationPolicy Orphan)`,
      method: 'DELETE',
      path: cr.path,
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: 'Orphan',
        preconditions: { uid: cr.uid },
      },
    },
    after: (s) => ({
      ...s,
      crs: s.crs.filter((c) => c.path !== cr.path),
      crds: s.crds.map((d) =>
        cr.path.includes(`/${crdPlural(d.name)}/`) ? { ...d, remaining: d.remaining - 1 } : d,
      ),
    }),
  };
}

function crdStep(state: AdoptState): Planned | undefined {
  const crd = state.crds.find((d) => d.remaining <= 0 && d.deleting !== true);
  if (crd === undefined) return undefined;
  return {
    step: {
      does: `delete CustomResourceDefinition ${crd.name} (none of its resources is left)`,
      method: 'DELETE',
      path: crd.path,
      body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: crd.uid } },
    },
    after: (s) => ({ ...s, crds: s.crds.filter((d) => d.name !== crd.name) }),
  };
}

/** `appservices.app.example.com` → `appservices`. */
function crdPlural(name: string): string {
  return name.split('.')[0] ?? name;
}
