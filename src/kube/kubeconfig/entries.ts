/**
 * The context a command uses, with its cluster and user, checked as kubectl's loader and validation check them
 * (clientcmd's ConfirmUsable): every field kubectl knows is either honoured or refused with a sentence, and an
 * unknown field is refused, never ignored. Only the entries the context uses are checked, as in kubectl.
 */
import { KubeconfigError, found } from './error.js';
import { at, bytes, flag, nonEmpty, only, text } from './fields.js';
import type { Entry, Merged } from './file.js';
import { userConfig, type UserConfig } from './user.js';

export type { ExecConfig, Impersonation, UserConfig } from './user.js';

type Json = Record<string, unknown>;

export interface ClusterConfig {
  readonly server: string;
  readonly ca?: Buffer;
  readonly insecure: boolean;
  readonly servername?: string;
  /** The cluster entry as written, for an exec plugin that asks for it (provideClusterInfo). */
  readonly raw: Json;
}

export interface ResolvedContext {
  readonly name: string;
  readonly cluster: ClusterConfig;
  readonly user: UserConfig;
}

const CLUSTER_FIELDS = [
  'server',
  'certificate-authority',
  'certificate-authority-data',
  'insecure-skip-tls-verify',
  'tls-server-name',
  'proxy-url',
  'disable-compression',
  'extensions',
];
const CONTEXT_FIELDS = ['cluster', 'user', 'namespace', 'extensions'];

/** The context `name` (from --context, or the current context) with its cluster and user, all checked. */
export function resolveContext(merged: Merged, name: string): ResolvedContext {
  const ctx = merged.contexts.get(name);
  if (ctx === undefined) {
    const known = [...merged.contexts.keys()];
    throw new KubeconfigError(
      { file: merged.files.join(', ') || '(none)', path: 'contexts' },
      `a context named ${JSON.stringify(name)}`,
      known.length === 0 ? 'no context' : `only ${known.map((k) => JSON.stringify(k)).join(', ')}`,
      'Pass --context with one of them (kubectl config get-contexts lists them).',
    );
  }
  only(ctx, CONTEXT_FIELDS);
  // The context's namespace: import and adopt take their namespaces from their flags only (checked, not ignored).
  text(ctx, 'namespace');
  const cluster = named(ctx, 'cluster', merged.clusters);
  if (cluster === undefined)
    throw new KubeconfigError(at(ctx, 'cluster'), 'the name of a cluster', 'nothing');
  // No user: anonymous requests, as kubectl sends them.
  const user = named(ctx, 'user', merged.users);
  return { name, cluster: clusterConfig(cluster), user: user === undefined ? {} : userConfig(user) };
}

/** The entry the context's `key` names: undefined when it names none, a sentence when it is not listed. */
function named(ctx: Entry, key: 'cluster' | 'user', entries: ReadonlyMap<string, Entry>): Entry | undefined {
  const name = nonEmpty(ctx, key);
  if (name === undefined) return undefined;
  const entry = entries.get(name);
  if (entry === undefined)
    throw new KubeconfigError(
      at(ctx, key),
      `the name of a ${key} listed under ${key}s`,
      `${JSON.stringify(name)}, which no kubeconfig file lists`,
    );
  return entry;
}

function clusterConfig(e: Entry): ClusterConfig {
  only(e, CLUSTER_FIELDS);
  const server = serverOf(e);
  const proxy = e.value['proxy-url'];
  if (proxy !== undefined)
    throw new KubeconfigError(
      at(e, 'proxy-url'),
      'no proxy-url: specforge connects to the API server directly and does not support proxies',
      found(proxy),
      'Remove proxy-url where the API server is reachable directly, or run specforge from where it is; specforge never ignores it.',
    );
  flag(e, 'disable-compression'); // specforge never asks for compressed responses: honoured either way
  const insecure = flag(e, 'insecure-skip-tls-verify') ?? false;
  const ca = bytes(e, 'certificate-authority-data', 'certificate-authority');
  if (insecure && ca !== undefined)
    throw new KubeconfigError(
      at(e, 'insecure-skip-tls-verify'),
      'not both a certificate authority and insecure-skip-tls-verify',
      'both',
      'kubectl refuses this too; keep one.',
    );
  const servername = nonEmpty(e, 'tls-server-name');
  return {
    server,
    insecure,
    raw: e.value,
    ...(ca === undefined ? {} : { ca }),
    ...(servername === undefined ? {} : { servername }),
  };
}

/** The cluster's server: an http(s) URL. */
function serverOf(e: Entry): string {
  const server = nonEmpty(e, 'server');
  if (server === undefined) throw new KubeconfigError(at(e, 'server'), "the API server's URL", 'nothing');
  const protocol = URL.canParse(server) ? new URL(server).protocol : '';
  if (protocol !== 'https:' && protocol !== 'http:')
    throw new KubeconfigError(at(e, 'server'), 'an https:// (or http://) URL', JSON.stringify(server));
  return server;
}
