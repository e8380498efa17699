/**
 * What the first sync does to a Deployment's pods: the pod-template fields where the render differs from the live
 * object as the API server will hold it after the apply (a new template: every pod restarts), and a changed pod
 * count. Fields the render leaves out are compared with the value the API server defaults them to, because adopt
 * hands the operator's fields to the GitOps manager, whose apply then drops them; container ports the render leaves
 * unmanaged (its Deployment's `specforge.dev/container-ports` label) stay as they are live. Pure.
 */
import type { Manifest, ManifestPart } from '../../rules/manifest.js';
import { portsUnmanaged } from '../../rules/ports.js';

/** Why the first sync restarts the pods (a pod-template change), and why it changes their count. */
export interface PodChanges {
  readonly restart: string[];
  readonly rescale: string[];
}

/** The pod-template and pod-count changes of applying `rendered` over `live` (both Deployments). Pure. */
export function podChanges(rendered: Manifest, live: Manifest): PodChanges {
  return {
    restart: templateChanges(template(rendered), template(live), portsUnmanaged(rendered)),
    rescale: replicaChanges(rendered, live),
  };
}

function template(d: Manifest): ManifestPart {
  return (d.spec?.template ?? {}) as ManifestPart;
}

function templateChanges(r: ManifestPart, l: ManifestPart, unmanagedPorts: boolean): string[] {
  const out: string[] = [];
  const [rm, lm] = [(r.metadata ?? {}) as ManifestPart, (l.metadata ?? {}) as ManifestPart];
  const [rs, ls] = [(r.spec ?? {}) as ManifestPart, (l.spec ?? {}) as ManifestPart];
  compare(out, 'pod labels', rm.labels ?? {}, lm.labels ?? {});
  compare(out, 'pod securityContext', rs.securityContext ?? {}, ls.securityContext ?? {});
  const [rc, lc] = [list(rs.containers), list(ls.containers)];
  if (rc.length !== lc.length) out.push(`${lc.length} containers live, ${rc.length} rendered`);
  else rc.forEach((c, i) => out.push(...containerChanges(c, lc[i] ?? {}, unmanagedPorts)));
  return out;
}

/** The pod count the render sets (Kubernetes' default of 1 when it sets none) against the live one. */
function replicaChanges(rendered: Manifest, live: Manifest): string[] {
  const set = rendered.spec?.replicas as number | undefined;
  const want = set ?? 1;
  const have = (live.spec?.replicas as number | undefined) ?? 1;
  if (want === have) return [];
  return [
    `replicas ${have} → ${want}${set === undefined ? ' (the spec gives none: Kubernetes’ default)' : ''}`,
  ];
}

function containerChanges(r: ManifestPart, l: ManifestPart, unmanagedPorts: boolean): string[] {
  const out: string[] = [];
  const at = `container ${JSON.stringify(l.name)}`;
  compare(out, `${at} name`, r.name, l.name);
  compare(out, `${at} image`, r.image, l.image);
  compare(out, `${at} imagePullPolicy`, pullPolicy(r), pullPolicy(l));
  if (!unmanagedPorts) out.push(...portChanges(at, list(r.ports).map(port), list(l.ports).map(port)));
  compare(out, `${at} env`, list(r.env).map(env), list(l.env).map(env));
  compare(out, `${at} resources`, r.resources ?? {}, l.resources ?? {});
  compare(out, `${at} securityContext`, r.securityContext ?? {}, l.securityContext ?? {});
  return out;
}

/** Rendered against live container ports; a live duplicate (one port and protocol twice) is a change whatever. */
function portChanges(at: string, rendered: ManifestPart[], live: ManifestPart[]): string[] {
  const keys = live.map((p) => `${p.containerPort}/${p.protocol}`);
  const twice = [...new Set(keys.filter((k, i) => keys.indexOf(k) !== i))];
  if (twice.length > 0)
    return [
      `${at} has ${twice.join(', ')} more than once: server-side apply cannot write duplicate container ports, so the first sync merges them (pin \`adopt.container.ports: unmanaged\` to keep them as they are)`,
    ];
  const out: string[] = [];
  compare(out, `${at} ports`, rendered, live);
  return out;
}

function list(v: unknown): ManifestPart[] {
  return (Array.isArray(v) ? v : []) as ManifestPart[];
}

function pullPolicy(c: ManifestPart): string {
  return (c.imagePullPolicy as string | undefined) ?? defaultPullPolicy(String(c.image));
}

/** What the API server defaults an unset pull policy to: Always for `:latest` or no tag, else IfNotPresent. Pure. */
export function defaultPullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** A container port as stored: protocol defaulted to TCP, keys in one order. */
function port(p: ManifestPart): ManifestPart {
  return {
    ...(p.name === undefined ? {} : { name: p.name }),
    containerPort: p.containerPort,
    protocol: p.protocol ?? 'TCP',
    ...(p.hostPort === undefined ? {} : { hostPort: p.hostPort }),
    ...(p.hostIP === undefined ? {} : { hostIP: p.hostIP }),
  };
}

/** An env var as stored: `fieldRef.apiVersion` defaulted to v1. */
function env(e: ManifestPart): ManifestPart {
  const fieldRef = e.valueFrom?.fieldRef as ManifestPart | undefined;
  if (fieldRef === undefined) return e;
  return { ...e, valueFrom: { ...e.valueFrom, fieldRef: { apiVersion: 'v1', ...fieldRef } } };
}

function compare(out: string[], what: string, rendered: unknown, live: unknown): void {
  const [r, l] = [canonical(rendered), canonical(live)];
  if (r !== l) out.push(`${what} ${l} → ${r}`);
}

/** JSON with object keys sorted (list order kept): equal values, equal text. Pure. */
function canonical(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : x !== null && typeof x === 'object'
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
          )
        : x;
  return JSON.stringify(sort(v) ?? null);
}
