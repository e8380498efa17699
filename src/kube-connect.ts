import { KubeClient } from './controller/kube.js';
import { loadCredentials } from './controller/kubeconfig.js';

/**
 * A client for the commands that talk to a cluster (`import`, `adopt`): the kubeconfig rules of kubectl
 * (--kubeconfig, else every KUBECONFIG file merged, else ~/.kube/config, else in-cluster), with --context picking a
 * context of whichever applies, whatever its user authenticates with.
 */
export async function connect(options: { kubeconfig?: string; context?: string }): Promise<KubeClient> {
  return KubeClient.fromCredentials(await loadCredentials(options.kubeconfig, process.env, options.context));
}
