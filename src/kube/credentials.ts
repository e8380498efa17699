/**
 * Finds the API server and the identity to use, as kubectl does, for the controller and the cluster commands:
 * `--kubeconfig FILE` alone, else every file of `KUBECONFIG` merged (first file wins each named entry; the current
 * context from the first file that sets one; missing files skipped), else `~/.kube/config`, else the in-cluster
 * service account. `--context` picks a context of whichever of these applies.
 *
 * Every kubeconfig field kubectl knows is honoured or refused with a sentence naming the file and field (see
 * `src/kube/kubeconfig/entries.ts`): tokens, token files, client certificates, basic auth, exec plugins, impersonation
 * (`as`, `as-uid`, `as-groups`, `as-user-extra` → `Impersonate-*` headers on every request), `tls-server-name`,
 * `insecure-skip-tls-verify`; `proxy-url` and `auth-provider` are refused. `@kubernetes/client-node` is not used
 * here: it ignores impersonation and refuses KUBECONFIG files that share an entry name, where kubectl merges them.
 */
import { existsSync, readFileSync } from 'node:fs';
import type https from 'node:https';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Credentials } from './client.js';
import {
  resolveContext,
  type ClusterConfig,
  type Impersonation,
  type ResolvedContext,
} from './kubeconfig/entries.js';
import { KubeconfigError } from './kubeconfig/error.js';
import { runExecPlugin, type ExecCredential } from './kubeconfig/exec.js';
import { readMerged } from './kubeconfig/file.js';

export { KubeconfigError } from './kubeconfig/error.js';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_TTL_MS = 60_000;
/** Run an exec plugin again this long before its credential expires. */
const EXEC_EARLY_MS = 10_000;

type Headers = Record<string, string | string[]>;

/**
 * Reads a token file, caching it for a minute (bound service-account tokens rotate on disk); one that cannot be
 * read is a sentence naming it (exit 1, as for the kubeconfig's other files), never Node's words.
 */
export function tokenFromFile(file: string): () => string {
  let token = '';
  let at = -Infinity;
  return () => {
    if (performance.now() - at > TOKEN_TTL_MS) {
      try {
        token = readFileSync(file, 'utf8').trim();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
        const why = {
          ENOENT: 'there is no such file',
          EACCES: 'permission denied',
          EISDIR: 'it is a directory',
        }[code];
        throw new Error(
          `the bearer token file ${file} cannot be read (${why ?? code}): check the tokenFile of the kubeconfig's user (--kubeconfig, KUBECONFIG, --context).`,
        );
      }
      at = performance.now();
    }
    return token;
  };
}

/** In-cluster config: KUBERNETES_SERVICE_HOST/PORT, the mounted token and CA. */
export function inClusterCredentials(
  env: NodeJS.ProcessEnv = process.env,
  dir = SA_DIR,
): Credentials | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (host === undefined || port === undefined || !existsSync(join(dir, 'token'))) return undefined;
  const server = host.includes(':') ? `https://[${host}]:${port}` : `https://${host}:${port}`;
  const token = tokenFromFile(join(dir, 'token'));
  return {
    server,
    tls: { ca: readFileSync(join(dir, 'ca.crt')) },
    headers: () => Promise.resolve({ Authorization: `Bearer ${token()}` }),
  };
}

/** The headers that make every request act as the impersonated identity (client-go's ImpersonatingRoundTripper). */
export function impersonationHeaders(i: Impersonation | undefined): Headers {
  if (i === undefined) return {};
  const h: Headers = { 'Impersonate-User': i.user };
  if (i.uid !== undefined) h['Impersonate-Uid'] = i.uid;
  if (i.groups.length > 0) h['Impersonate-Group'] = [...i.groups];
  for (const [key, values] of Object.entries(i.extra))
    if (values.length > 0) h[`Impersonate-Extra-${headerKeyEscape(key)}`] = [...values];
  return h;
}

/** An extra's key as a header name: what is not a token character is %-escaped, as client-go does. */
function headerKeyEscape(key: string): string {
  return [...Buffer.from(key, 'utf8')]
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9!#$&'*+\-.^_`|~]/.test(c) && b < 128
        ? c
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** The agent's TLS options: the cluster's CA, name and verification, the client certificate. */
function tlsOf(cluster: ClusterConfig, cert?: Buffer, key?: Buffer): https.AgentOptions {
  return {
    ...(cluster.ca === undefined ? {} : { ca: cluster.ca }),
    ...(cluster.insecure ? { rejectUnauthorized: false } : {}),
    ...(cluster.servername === undefined ? {} : { servername: cluster.servername }),
    ...(cert === undefined || key === undefined ? {} : { cert, key }),
  };
}

/** The credentials of a resolved context: TLS, the auth header (refreshed), impersonation. */
async function contextCredentials(ctx: ResolvedContext): Promise<Credentials> {
  const { cluster, user } = ctx;
  let exec: ExecCredential | undefined =
    user.exec === undefined ? undefined : await runExecPlugin(user.exec, cluster);
  const tls = tlsOf(cluster, exec?.cert ?? user.cert, exec?.key ?? user.key);
  const fileToken = user.tokenFile === undefined ? undefined : tokenFromFile(user.tokenFile);
  const impersonate = impersonationHeaders(user.impersonate);
  const bearer = async (): Promise<string | undefined> => {
    if (user.exec !== undefined) {
      if (exec?.expiresAt !== undefined && Date.now() > exec.expiresAt - EXEC_EARLY_MS)
        exec = await runExecPlugin(user.exec, cluster);
      return exec?.token;
    }
    return fileToken === undefined ? user.token : fileToken();
  };
  return {
    server: cluster.server,
    tls,
    ...(user.basicAuth === undefined ? {} : { basicAuth: user.basicAuth }),
    headers: async () => {
      const token = await bearer();
      return { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...impersonate };
    },
  };
}

/** The context to use: `--context`, else the current context; a sentence when there is none. */
function contextName(merged: Awaited<ReturnType<typeof readMerged>>, context?: string): string {
  if (context !== undefined) return context;
  if (merged.currentContext !== undefined) return merged.currentContext.name;
  const files = merged.files.join(', ');
  if (merged.empty.length === merged.files.length)
    throw new KubeconfigError(
      { file: files, path: '' },
      'a kubeconfig with clusters, users, contexts and current-context',
      'an empty file',
      'Point --kubeconfig (or KUBECONFIG) at your kubeconfig.',
    );
  throw new KubeconfigError(
    { file: files, path: 'current-context' },
    'the context to use',
    'nothing',
    'Pass --context NAME, or run kubectl config use-context NAME.',
  );
}

/** Credentials of the context `context` (default: the current one) of the kubeconfig `path`, alone. */
export async function fileCredentials(path: string, context?: string): Promise<Credentials> {
  const merged = await readMerged([path], false);
  return contextCredentials(resolveContext(merged, contextName(merged, context)));
}

/** Resolves credentials the way kubectl does (see the module comment). */
export async function loadCredentials(
  kubeconfig?: string,
  env: NodeJS.ProcessEnv = process.env,
  context?: string,
): Promise<Credentials> {
  if (kubeconfig !== undefined) return fileCredentials(kubeconfig, context);
  const fromEnv = env.KUBECONFIG?.split(delimiter).filter((p) => p !== '') ?? [];
  const files = fromEnv.length > 0 ? fromEnv : [join(homedir(), '.kube', 'config')];
  const merged = await readMerged(files, true);
  const usable = merged.files.length > merged.empty.length;
  if (usable || context !== undefined) {
    if (merged.files.length === 0)
      throw new KubeconfigError(
        { file: files.join(delimiter), path: '' },
        `a kubeconfig with the context ${JSON.stringify(context)}`,
        'no such file',
        'Point --kubeconfig (or KUBECONFIG) at your kubeconfig.',
      );
    return contextCredentials(resolveContext(merged, contextName(merged, context)));
  }
  const inCluster = inClusterCredentials(env);
  if (inCluster !== undefined) return inCluster;
  throw new KubeconfigError(
    { file: files.join(delimiter), path: '' },
    'a kubeconfig (--kubeconfig, KUBECONFIG, ~/.kube/config) or a Pod with a service account',
    merged.files.length === 0
      ? 'no such file, and not in a cluster'
      : 'only empty files, and not in a cluster',
    'Pass --kubeconfig FILE.',
  );
}
