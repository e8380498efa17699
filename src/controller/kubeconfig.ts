/**
 * Finds the API server and credentials without loading `@kubernetes/client-node` for the common cases: in-cluster
 * service account, or a kubeconfig context with a token, token file, client certificate or basic auth. That library
 * costs about 85 MB of resident memory at import (it loads every generated API model), more than the controller's
 * whole working set, so it is imported only for what it alone handles: exec plugins, auth providers, several
 * KUBECONFIG files.
 *
 * Order, as kubectl and client-go: `--kubeconfig`, then `KUBECONFIG`, then `~/.kube/config`, then in-cluster.
 */
import { existsSync, readFileSync } from 'node:fs';
import type https from 'node:https';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, delimiter } from 'node:path';
import { credentialsFromKubeConfig, type Credentials } from './kube.js';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_TTL_MS = 60_000;

interface NamedCluster {
  name: string;
  cluster: Record<string, unknown>;
}
interface NamedUser {
  name: string;
  user: Record<string, unknown>;
}
interface NamedContext {
  name: string;
  context: { cluster?: string; user?: string };
}
interface KubeconfigFile {
  clusters?: NamedCluster[];
  users?: NamedUser[];
  contexts?: NamedContext[];
  'current-context'?: string;
}

/** Reads a token file, caching it for a minute (bound service-account tokens rotate on disk). */
function tokenFromFile(file: string): () => Promise<Record<string, string>> {
  let token = '';
  let at = -Infinity;
  return () => {
    if (performance.now() - at > TOKEN_TTL_MS) {
      token = readFileSync(file, 'utf8').trim();
      at = performance.now();
    }
    return Promise.resolve({ Authorization: `Bearer ${token}` });
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
  return {
    server,
    tls: { ca: readFileSync(join(dir, 'ca.crt')) },
    headers: tokenFromFile(join(dir, 'token')),
  };
}

function bytes(base: string, data: unknown, file: unknown): Buffer | undefined {
  if (typeof data === 'string') return Buffer.from(data, 'base64');
  if (typeof file === 'string') return readFileSync(isAbsolute(file) ? file : join(base, file));
  return undefined;
}

function userAuth(base: string, user: Record<string, unknown>): Pick<Credentials, 'headers' | 'basicAuth'> {
  if (typeof user.token === 'string') {
    const header = { Authorization: `Bearer ${user.token}` };
    return { headers: () => Promise.resolve(header) };
  }
  if (typeof user.tokenFile === 'string') {
    return {
      headers: tokenFromFile(isAbsolute(user.tokenFile) ? user.tokenFile : join(base, user.tokenFile)),
    };
  }
  const basicAuth =
    typeof user.username === 'string' && typeof user.password === 'string'
      ? `${user.username}:${user.password}`
      : undefined;
  return { headers: () => Promise.resolve({}), basicAuth };
}

function tlsOptions(
  base: string,
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
): https.AgentOptions {
  const tls: https.AgentOptions = {};
  const ca = bytes(base, cluster['certificate-authority-data'], cluster['certificate-authority']);
  const cert = bytes(base, user['client-certificate-data'], user['client-certificate']);
  const key = bytes(base, user['client-key-data'], user['client-key']);
  if (ca !== undefined) tls.ca = ca;
  if (cert !== undefined) tls.cert = cert;
  if (key !== undefined) tls.key = key;
  if (cluster['insecure-skip-tls-verify'] === true) tls.rejectUnauthorized = false;
  if (typeof cluster['tls-server-name'] === 'string') tls.servername = cluster['tls-server-name'];
  return tls;
}

function pickContext(
  path: string,
  config: KubeconfigFile,
  name: string,
): { cluster: Record<string, unknown> & { server: string }; user: Record<string, unknown> } {
  const ctx = config.contexts?.find((c) => c.name === name)?.context;
  if (ctx === undefined) throw new Error(`kubeconfig ${path}: no context "${name}"`);
  const cluster = config.clusters?.find((c) => c.name === ctx.cluster)?.cluster;
  if (typeof cluster?.server !== 'string') {
    throw new Error(`kubeconfig ${path}: context "${name}" has no cluster with a server`);
  }
  const user = config.users?.find((u) => u.name === ctx.user)?.user ?? {};
  return { cluster: cluster as Record<string, unknown> & { server: string }, user };
}

/**
 * Credentials for the current context of one kubeconfig file; undefined when the context needs what only
 * client-node does (exec, auth-provider). The YAML parser is loaded only here: in-cluster runs never need it.
 */
export async function fileCredentials(path: string, context?: string): Promise<Credentials | undefined> {
  const { parse } = await import('yaml');
  const config = parse(readFileSync(path, 'utf8')) as KubeconfigFile;
  const base = dirname(path);
  const { cluster, user } = pickContext(path, config, context ?? config['current-context'] ?? '');
  if (user.exec !== undefined || user['auth-provider'] !== undefined) return undefined;
  return { server: cluster.server, tls: tlsOptions(base, cluster, user), ...userAuth(base, user) };
}

async function viaClientNode(path: string | undefined): Promise<Credentials> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if (path !== undefined) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return credentialsFromKubeConfig(kc);
}

/** Resolves credentials the way kubectl does (see the module comment). */
export async function loadCredentials(
  kubeconfig?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Credentials> {
  if (kubeconfig !== undefined) return (await fileCredentials(kubeconfig)) ?? viaClientNode(kubeconfig);
  const fromEnv = env.KUBECONFIG?.split(delimiter).filter((p) => p !== '') ?? [];
  if (fromEnv.length > 1) return viaClientNode(undefined);
  const file = fromEnv[0] ?? join(homedir(), '.kube', 'config');
  if (existsSync(file)) return (await fileCredentials(file)) ?? viaClientNode(file);
  const inCluster = inClusterCredentials(env);
  if (inCluster !== undefined) return inCluster;
  throw new Error(
    'No kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config) and not running in a cluster.',
  );
}
