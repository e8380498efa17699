import { handOver } from './managed-fields.js';
import { UNMANAGED_MANAGER } from '../../rules/vocabulary.js';
import { describe } from '../io.js';
import {
  unmanagedOf,
  type AdoptOptions,
  type AdoptState,
  type LiveObject,
  type ManagedFieldsEntry,
  type Step,
} from './model.js';

const JSON_PATCH = 'application/json-patch+json';

/** A step, with what it changes in the state (so a plan can be computed without touching the cluster). */
interface Planned {
  readonly step: Step;
  readonly after: (s: AdoptState) => AdoptState;
}

/**
 * The next call of the cut-over for this state, in the only safe order (migration.md §3): adopt every dependent (one
 * JSON patch: detach it from the old resources with a `test` of each owner's uid, and hand the operator's managed
 * fields to the GitOps manager with a `test` of the resourceVersion, so no run ever leaves an object detached but
 * not handed over), remove the old finalizers (`test` of the finalizer), delete the old resources with
 * `propagationPolicy: Orphan`, and, once none of its resources is left, the CRD. Undefined when nothing is left to
 * do. Pure: `adopt apply` reads the cluster again before every step, so a run killed anywhere and started again
 * continues where the cluster is.
 */
export function nextStep(state: AdoptState, options: AdoptOptions): Planned | undefined {
  return adoptStep(state, options) ?? finalizerStep(state, options) ?? deleteStep(state) ?? crdStep(state);
}

/**
 * The most calls a state can need: one per dependent, per finalizer and per old resource, one per CRD. Each step
 * takes one of them away, so a plan longer than this is a bug, not a cluster to wait for. Pure.
 */
export function mostCalls(state: AdoptState): number {
  const finalizers = state.crs.reduce((n, cr) => n + cr.finalizers.length, 0);
  return state.dependents.length + finalizers + state.crs.length + state.crds.length;
}

/** Every call `adopt apply` would make from this state, in order. Pure. */
export function plan(state: AdoptState, options: AdoptOptions): Step[] {
  const steps: Step[] = [];
  const most = mostCalls(state);
  let s = state;
  for (let next = nextStep(s, options); next !== undefined; next = nextStep(s, options)) {
    if (steps.length >= most)
      throw new Error(
        `the adoption plan does not settle: ${most} calls planned and still "${next.step.does}" to do; nothing was changed`,
      );
    steps.push(next.step);
    s = next.after(s);
  }
  return steps;
}

/**
 * Why each of {@link AdoptState.others} is left alone, as sentences; none for an object the GitOps manager already
 * manages (adopted before, or applied by the tool). Pure.
 */
export function leftAlone(state: AdoptState, options: AdoptOptions): string[] {
  const adopting =
    state.crs.length === 0
      ? 'any old resource (none is left)'
      : state.crs.map((cr) => describe(cr)).join(', ');
  return state.others
    .filter((o) => !o.managedFields.some((e) => e.manager === options.fieldManager))
    .map((o) => {
      const owners = o.ownerReferences.map(
        (r) => `${r.kind} ${r.name}${r.controller === true ? ' (its controller)' : ''}`,
      );
      const managers = [
        ...new Set(
          o.managedFields.filter((e) => (e.subresource ?? '') === '').map((e) => e.manager ?? '(unnamed)'),
        ),
      ];
      const ownedBy = owners.length === 0 ? '' : `; it belongs to ${owners.join(', ')}`;
      const from = managers.length === 0 ? '' : ` from ${managers.join(', ')}`;
      return (
        `left alone: ${describe(o)} is not owned by ${adopting}${ownedBy}. adopt changes nothing on it, but the ` +
        `chart renders an object of that name: applying it would take its fields${from} and fight ` +
        `${owners.length === 0 ? 'whoever manages it' : 'its owner'}; rename or drop it in the chart unless that is meant`
      );
    });
}

function adoptStep(state: AdoptState, options: AdoptOptions): Planned | undefined {
  const owners = new Set(state.crs.map((cr) => cr.uid));
  for (const d of state.dependents) {
    const refs = d.ownerReferences.flatMap((ref, i) => (owners.has(ref.uid) ? [{ ref, i }] : []));
    if (refs.length === 0) continue;
    const fields = handOver(d.managedFields, {
      ...options,
      detached: new Set(refs.map((r) => r.ref.uid)),
      unmanaged: unmanagedOf(options, d),
    });
    const from = refs.map(({ ref }) => `${ref.kind} ${ref.name} (ownerReference uid ${ref.uid})`).join(', ');
    const gave = [
      ...new Set(
        d.managedFields
          .filter((e) => options.operatorManagers.includes(e.manager ?? '') && (e.subresource ?? '') === '')
          .map((e) => e.manager ?? ''),
      ),
    ];
    const fieldsDo =
      gave.length === 0
        ? `no field of ${options.operatorManagers.join(', ')} to hand over`
        : `hand the fields ${gave.join(', ')} set on it to ${options.fieldManager}${keptNote(d, fields)}`;
    return {
      step: {
        does: `adopt ${describe(d)}: detach it from ${from}, ${fieldsDo}`,
        method: 'PATCH',
        path: d.path,
        contentType: JSON_PATCH,
        body: [
          ...refs.map(({ ref, i }) => ({
            op: 'test',
            path: `/metadata/ownerReferences/${i}/uid`,
            value: ref.uid,
          })),
          { op: 'test', path: '/metadata/resourceVersion', value: d.resourceVersion },
          ...[...refs].reverse().map(({ i }) => ({ op: 'remove', path: `/metadata/ownerReferences/${i}` })),
          ...(fields === undefined
            ? []
            : [{ op: 'replace', path: '/metadata/managedFields', value: fields }]),
        ],
      },
      after: (s) => ({ ...s, dependents: s.dependents.filter((x) => x.path !== d.path) }),
    };
  }
  return undefined;
}

/** What the hand-over gave to no GitOps manager, when it gave any (unmanaged container ports). Pure. */
function keptNote(d: LiveObject, fields: readonly ManagedFieldsEntry[] | undefined): string {
  const kept = (entries: readonly ManagedFieldsEntry[]): string =>
    JSON.stringify(entries.filter((e) => e.manager === UNMANAGED_MANAGER));
  if (fields === undefined || kept(fields) === kept(d.managedFields)) return '';
  return ` but its container ports, which the render leaves unmanaged (to ${UNMANAGED_MANAGER})`;
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
