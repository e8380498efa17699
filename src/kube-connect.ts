import { delimiter } from 'node:path';
import { KubeClient } from './controller/kube.js';
import { fileCredentials, loadCredentials } from './controller/kubeconfig.js';
import { UsageError } from './usage-error.js';

/**
 * A client for the commands that talk to a cluster (`import`, `adopt`): the usual kubeconfig rules (--kubeconfig,
 * KUBECONFIG, ~/.kube/config, in-cluster), and --context to pick a context of the given file.
 */
export async function connect(options: { kubeconfig?: string; context?: string }): Promise<KubeClient> {
  if (options.context === undefined)
    return KubeClient.fromCredentials(await loadCredentials(options.kubeconfig));
  const file = options.kubeconfig ?? process.env.KUBECONFIG?.split(delimiter)[0];
  if (file === undefined || file === '') throw new UsageError('--context needs --kubeconfig (or KUBECONFIG)');
  const creds = await fileCredentials(file, options.context);
  if (creds === undefined)
    throw new UsageError(
      `context ${options.context} uses exec or auth-provider credentials; pass a kubeconfig with a token or certificate`,
    );
  return KubeClient.fromCredentials(creds);
}
