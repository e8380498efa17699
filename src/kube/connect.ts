import { KubeClient } from './client.js';
import { loadCredentials } from './credentials.js';
import { UsageError } from '../util/usage-error.js';

/** The server each client was made for, to name it when it cannot be reached. */
const servers = new WeakMap<KubeClient, string>();

/** Node's codes for an API server that cannot be reached at all (no answer, no route, no such host), in words. */
const NETWORK: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing listens there',
  ECONNRESET: 'it closed the connection',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'its name could not be looked up',
  ETIMEDOUT: 'no answer in time',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to its network',
};

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
 * `e` as a sentence naming the server and what to check when it is a failure to reach the API server at all (a
 * usage error, exit 2: the place given is not one specforge can use), ending with `outcome` (what the command
 * left as it was); any other error as it is.
 */
export function unreachable(client: KubeClient, e: unknown, outcome = 'nothing was written'): unknown {
  const code = networkCode(e);
  const why = code === undefined ? undefined : NETWORK[code];
  if (why === undefined) return e;
  return new UsageError(
    `cannot reach the API server ${servers.get(client) ?? ''} (${why}): check the server of the kubeconfig context in use (--kubeconfig, KUBECONFIG, --context) and that the cluster is up; ${outcome}.`,
    false,
  );
}

/** The network code of `e`, or of the error it was caused by (fetch's `cause`). */
function networkCode(e: unknown): string | undefined {
  for (let err = e, depth = 0; err !== undefined && err !== null && depth < 3; depth++) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && Object.hasOwn(NETWORK, code)) return code;
    err = (err as { cause?: unknown }).cause;
  }
  return undefined;
}
