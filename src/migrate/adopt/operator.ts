import { getOrUndefined, type MigrateClient } from '../cluster.js';

/** A namespaced object's namespace and name. */
interface NamespacedName {
  readonly namespace: string;
  readonly name: string;
}

/** Where the old operator runs: its Deployment and, optionally, its leader-election Lease. */
export interface OperatorRef {
  readonly deployment?: NamespacedName;
  readonly lease?: NamespacedName;
}

/** The fields of a Deployment that tell whether it has pods. */
interface DeploymentReplicas {
  spec?: { replicas?: number };
  status?: { replicas?: number };
}

/** The fields of a Lease that tell whether its holder renewed it lately. */
interface LeaseRenewal {
  spec?: { renewTime?: string; leaseDurationSeconds?: number; holderIdentity?: string };
}

/**
 * Why the old operator still counts as running, or undefined when it is stopped: its Deployment still has pods
 * (wanted or existing replicas), or its Lease was renewed within its duration. A running operator fights the new
 * owner (migration.md §3 a), so adoption refuses. GETs only.
 */
export async function operatorRunning(
  client: MigrateClient,
  op: OperatorRef,
  now: Date = new Date(),
): Promise<string | undefined> {
  if (op.deployment !== undefined) {
    const { namespace, name } = op.deployment;
    const d = await getOrUndefined<DeploymentReplicas>(
      client,
      `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
    );
    if (d === undefined) return notFound('Deployment', op.deployment, '--operator');
    const why = deploymentRunning(op.deployment, d);
    if (why !== undefined) return why;
  }
  if (op.lease !== undefined) {
    const { namespace, name } = op.lease;
    const l = await getOrUndefined<LeaseRenewal>(
      client,
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`,
    );
    if (l === undefined) return notFound('Lease', op.lease, '--operator-lease');
    const why = leaseHeld(op.lease, l, now);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Why a Deployment counts as running (it wants or has pods; no `spec.replicas` means 1), or undefined. Pure. */
function deploymentRunning({ namespace, name }: NamespacedName, d: DeploymentReplicas): string | undefined {
  const wanted = d.spec?.replicas ?? 1;
  const running = d.status?.replicas ?? 0;
  if (wanted > 0 || running > 0)
    return `the old operator still runs: its Deployment ${namespace}/${name} has ${wanted} wanted and ${running} existing pods (scale it to 0 first: kubectl -n ${namespace} scale deployment ${name} --replicas=0)`;
  return undefined;
}

/** Why a Lease counts as held (a holder renewed it within its duration, 15 s by default), or undefined. Pure. */
function leaseHeld({ namespace, name }: NamespacedName, l: LeaseRenewal, now: Date): string | undefined {
  const renewed = Date.parse(l.spec?.renewTime ?? '');
  const duration = (l.spec?.leaseDurationSeconds ?? 15) * 1000;
  if (l.spec?.holderIdentity && !Number.isNaN(renewed) && now.getTime() - renewed < duration)
    return `the old operator still runs: its Lease ${namespace}/${name} was renewed ${Math.round((now.getTime() - renewed) / 1000)} s ago by ${l.spec.holderIdentity}`;
  return undefined;
}

/**
 * A named operator object that does not exist: a typo must not pass for "stopped". The reason to refuse, naming what
 * to check. Pure.
 */
function notFound(kind: string, { namespace, name }: NamespacedName, flag: string): string {
  return `cannot tell whether the old operator runs: its ${kind} ${namespace}/${name} (${flag}) does not exist; check the name, or pass --operator-gone once the operator is uninstalled`;
}
