import type { KubeClient } from '../controller/kube.js';
import { isStatus } from '../controller/kube.js';

/** Where the old operator runs: its Deployment and, optionally, its leader-election Lease. */
export interface OperatorRef {
  readonly deployment?: { readonly namespace: string; readonly name: string };
  readonly lease?: { readonly namespace: string; readonly name: string };
}

/**
 * Why the old operator still counts as running, or undefined when it is stopped: its Deployment still has pods
 * (wanted or existing replicas), or its Lease was renewed within its duration. A running operator fights the new
 * owner (migration.md §3 a), so adoption refuses. GETs only.
 */
export async function operatorRunning(
  client: KubeClient,
  op: OperatorRef,
  now: Date = new Date(),
): Promise<string | undefined> {
  if (op.deployment !== undefined) {
    const { namespace, name } = op.deployment;
    try {
      const d = await client.request<{ spec?: { replicas?: number }; status?: { replicas?: number } }>(
        'GET',
        `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
      );
      const wanted = d.spec?.replicas ?? 1;
      const running = d.status?.replicas ?? 0;
      if (wanted > 0 || running > 0)
        return `its Deployment ${namespace}/${name} has ${wanted} wanted and ${running} existing pods (scale it to 0 first: kubectl -n ${namespace} scale deployment ${name} --replicas=0)`;
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
  if (op.lease !== undefined) {
    const { namespace, name } = op.lease;
    try {
      const l = await client.request<{
        spec?: { renewTime?: string; leaseDurationSeconds?: number; holderIdentity?: string };
      }>('GET', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${name}`);
      const renewed = Date.parse(l.spec?.renewTime ?? '');
      const duration = (l.spec?.leaseDurationSeconds ?? 15) * 1000;
      if (l.spec?.holderIdentity && !Number.isNaN(renewed) && now.getTime() - renewed < duration)
        return `its Lease ${namespace}/${name} was renewed ${Math.round((now.getTime() - renewed) / 1000)} s ago by ${l.spec.holderIdentity}`;
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
  return undefined;
}
