import type { Manifest, ManifestPart } from '../../rules/manifest.js';
import type { PodChanges } from './pod-changes.js';

/**
 * What adoption does with one object the operator made. `restart`: adopted, but the first sync changes its pod
 * template (every pod restarts); `rescale`: adopted, but the first sync changes its pod count.
 */
export type Verdict = 'adopt' | 'adopt with pins' | 'restart' | 'rescale' | 'replace' | 'blocked' | 'create';

export interface ObjectVerdict {
  readonly kind: string;
  readonly name: string;
  readonly verdict: Verdict;
  /** Why, and what the user must do (replace, blocked, create). */
  readonly why?: string;
  /** The pins this object needed (adopt with pins). */
  readonly pins?: readonly string[];
  /** The pods the first sync restarts or stops (restart, rescale), by name. */
  readonly pods?: readonly string[];
}

/** A field where the live object differs from what the resource's spec renders: what the first sync changes. */
export interface Difference {
  readonly kind: string;
  readonly name: string;
  readonly path: string;
  readonly live: unknown;
  readonly spec: unknown;
}

/** Fields the API server fills in or the render leaves to it: never a difference. */
const SERVER_OWNED =
  /^(status|metadata)(\.|$)|\.clusterIPs?$|\.clusterIP$|\.ipFamil|\.sessionAffinity|\.internalTrafficPolicy|\.terminationMessage|\.dnsPolicy|\.restartPolicy|\.schedulerName|\.securityContext$|\.terminationGracePeriodSeconds|\.progressDeadlineSeconds|\.revisionHistoryLimit|\.strategy|\.protocol$|\.wildcardPolicy|\.weight$/;

/**
 * Every leaf of the rendered object's spec (the fields specforge sets) whose live value differs: what the first sync
 * will change. Lists compare by position. Pure.
 */
export function differences(rendered: Manifest, live: Manifest): Difference[] {
  const out: Difference[] = [];
  const walk = (r: unknown, l: unknown, path: string): void => {
    if (SERVER_OWNED.test(path)) return;
    if (r !== null && typeof r === 'object') {
      if (Array.isArray(r)) {
        r.forEach((x, i) => walk(x, Array.isArray(l) ? l[i] : undefined, `${path}[${i}]`));
        return;
      }
      for (const [k, v] of Object.entries(r))
        walk(v, (l as ManifestPart | undefined)?.[k], path === '' ? k : `${path}.${k}`);
      return;
    }
    if (r !== l)
      out.push({
        kind: String(rendered.kind),
        name: String(rendered.metadata?.name),
        path,
        live: l,
        spec: r,
      });
  };
  for (const top of ['spec', 'handler', 'scheduling']) walk(rendered[top], live[top], top);
  return out;
}

/** Immutable fields an apply cannot change: a difference there blocks adoption. */
const IMMUTABLE: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['spec.selector'],
  RuntimeClass: ['handler'],
};

/** What {@link verdictFor} judges one object the operator made by. */
export interface VerdictInput {
  /** The object's kind, and its name as the operator gave it. */
  readonly made: { readonly kind: string; readonly name: string };
  /** Its live form; undefined: not found. */
  readonly live: Manifest | undefined;
  /** Whether it belongs to the resource (an ownerReference with the resource's uid). */
  readonly ownedByResource: boolean;
  /** What specforge renders for it (with the pins); undefined: nothing of its kind and name. */
  readonly rendered: Manifest | undefined;
  /** The pins it needed. */
  readonly pins: readonly string[];
  /** A Deployment's: what the first sync does to its pods, and the pods it has now. */
  readonly pods?: { readonly changes: PodChanges; readonly names: readonly string[] };
}

/**
 * The verdict for one object the operator made: create when it is not found, replace when it belongs to another
 * resource, blocked when specforge renders nothing for it or an immutable field differs, restart when the first sync
 * changes its pod template, rescale when it changes its pod count, else adopt (with the pins it needed, if any).
 * Pure.
 */
export function verdictFor({
  made,
  live,
  ownedByResource,
  rendered,
  pins,
  pods,
}: VerdictInput): ObjectVerdict {
  const base = { kind: made.kind, name: made.name };
  if (live === undefined)
    return { ...base, verdict: 'create', why: 'not found in the cluster: the first sync creates it' };
  if (!ownedByResource)
    return {
      ...base,
      verdict: 'replace',
      why: 'it belongs to another resource (the operator gave every resource of this kind in a namespace the same name): the render makes a new object named after the spec; move traffic to it, then delete the old one',
    };
  if (rendered === undefined)
    return {
      ...base,
      verdict: 'blocked',
      why: 'specforge renders no object of this kind and name for the spec',
    };
  for (const path of IMMUTABLE[made.kind] ?? []) {
    const [a, b] = [at(rendered, path), at(live, path)];
    if (JSON.stringify(a) !== JSON.stringify(b))
      return {
        ...base,
        verdict: 'blocked',
        why: `${path} is immutable and differs (live ${JSON.stringify(b)}, rendered ${JSON.stringify(a)})`,
      };
  }
  return (
    podVerdict(base, pins, pods) ??
    (pins.length > 0 ? { ...base, verdict: 'adopt with pins', pins } : { ...base, verdict: 'adopt' })
  );
}

/** restart or rescale, naming the pods and why, when the first sync changes the pods; else undefined. Pure. */
function podVerdict(
  base: { kind: string; name: string },
  pins: readonly string[],
  pods: VerdictInput['pods'],
): ObjectVerdict | undefined {
  if (pods === undefined) return undefined;
  const { restart, rescale } = pods.changes;
  const [verdict, why]: [Verdict, string] | [undefined, undefined] =
    restart.length > 0
      ? ['restart', `the first sync changes the pod template, so every pod restarts: ${restart.join('; ')}`]
      : rescale.length > 0
        ? ['rescale', `the first sync changes the pod count: ${rescale.join('; ')}`]
        : [undefined, undefined];
  if (verdict === undefined) return undefined;
  return { ...base, verdict, ...(pins.length > 0 ? { pins } : {}), pods: [...pods.names], why };
}

function at(o: Manifest, path: string): unknown {
  return path.split('.').reduce<unknown>((x, k) => (x as ManifestPart | undefined)?.[k], o);
}
