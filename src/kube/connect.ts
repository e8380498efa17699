import { KubeClient } from './client.js';
import { loadCredentials } from './credentials.js';

/** The server each client was made for, to name it when it cannot be reached. */
const servers = new WeakMap<KubeClient, string>();

/** Node's codes for an API server that cannot be reached at all (no answer, no route, no such host). */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * A client for the commands that talk to a cluster (`import`, `adopt`): the kubeconfig rules of kubectl
 * (--kubeconfig, else every KUBECONFIG file merged, else ~/.kube/config, else in-cluster), with --context picking a
 * context of whichever applies, whatever its user authenticates with.
 */
export async function connect(options: { kubeconfig?: string; context?: string }): Promise<KubeClient> {
  const credentials = await loadCredentials(options.kubeconfig, process.env, options.context);
  const client = await KubeClient.fromCredentials(credentials);
  servers.set(client, credentials.server);
  return client;
}

/**
 * `e` as a sentence naming the server and what to check when it is a failure to reach the API server at all;
 * any other error as it is.
 */
export function unreachable(client: KubeClient, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !NETWORK.has(code)) return e;
  return new Error(
    `cannot reach the API server ${servers.get(client) ?? ''} (${(e as Error).message}): check the server of the kubeconfig context in use (--kubeconfig, KUBECONFIG, --context) and that the cluster is up; nothing was written.`,
  );
}
