/**
 * The fields of the cluster, user and context a command uses, checked as kubectl's loader and validation check
 * them (clientcmd's ConfirmUsable): every field kubectl knows is either honoured or refused with a sentence, and an
 * unknown field is refused, never ignored. Reads the files the entries name (CA, client certificate, key).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { KubeconfigError, found } from './error.js';
import type { Entry, Merged } from './file.js';

type Json = Record<string, unknown>;

export interface ClusterConfig {
  readonly server: string;
  readonly ca?: Buffer;
  readonly insecure: boolean;
  readonly servername?: string;
  /** The cluster entry as written, for an exec plugin that asks for it (provideClusterInfo). */
  readonly raw: Json;
}

export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { name: string; value: string }[];
  readonly apiVersion: string;
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  /** Where it is written, for messages: the file and the field path. */
  readonly file: string;
  readonly path: string;
}

export interface Impersonation {
  readonly user: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export interface UserConfig {
  readonly token?: string;
  /** A token file, re-read as it rotates; wins over `token`, as in client-go. */
  readonly tokenFile?: string;
  readonly basicAuth?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly exec?: ExecConfig;
  readonly impersonate?: Impersonation;
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
const USER_FIELDS = [
  'client-certificate',
  'client-certificate-data',
  'client-key',
  'client-key-data',
  'token',
  'tokenFile',
  'as',
  'as-uid',
  'as-groups',
  'as-user-extra',
  'username',
  'password',
  'auth-provider',
  'exec',
  'extensions',
];
const CONTEXT_FIELDS = ['cluster', 'user', 'namespace', 'extensions'];
const EXEC_FIELDS = [
  'command',
  'args',
  'env',
  'apiVersion',
  'installHint',
  'provideClusterInfo',
  'interactiveMode',
];
const EXEC_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/** The context `name` (from --context, or the current context) with its cluster and user, all checked. */
export function resolveContext(merged: Merged, name: string): ResolvedContext {
  const ctx = merged.contexts.get(name);
  if (ctx === undefined) {
    const known = [...merged.contexts.keys()];
    throw new KubeconfigError(
      merged.files.join(', ') || '(none)',
      'contexts',
      `a context named ${JSON.stringify(name)}`,
      known.length === 0 ? 'no context' : `only ${known.map((k) => JSON.stringify(k)).join(', ')}`,
      'Pass --context with one of them (kubectl config get-contexts lists them).',
    );
  }
  only(ctx, CONTEXT_FIELDS);
  const clusterName = text(ctx, 'cluster');
  if (clusterName === undefined || clusterName === '')
    throw new KubeconfigError(ctx.file, `${ctx.path}.cluster`, 'the name of a cluster', 'nothing');
  const cluster = merged.clusters.get(clusterName);
  if (cluster === undefined)
    throw new KubeconfigError(
      ctx.file,
      `${ctx.path}.cluster`,
      'the name of a cluster listed under clusters',
      `${JSON.stringify(clusterName)}, which no kubeconfig file lists`,
    );
  text(ctx, 'namespace');
  const userName = text(ctx, 'user');
  const user = userName === undefined || userName === '' ? undefined : merged.users.get(userName);
  if (userName !== undefined && userName !== '' && user === undefined)
    throw new KubeconfigError(
      ctx.file,
      `${ctx.path}.user`,
      'the name of a user listed under users',
      `${JSON.stringify(userName)}, which no kubeconfig file lists`,
    );
  return { name, cluster: clusterConfig(cluster), user: user === undefined ? {} : userConfig(user) };
}

function clusterConfig(e: Entry): ClusterConfig {
  only(e, CLUSTER_FIELDS);
  const server = text(e, 'server');
  if (server === undefined || server === '')
    throw new KubeconfigError(e.file, `${e.path}.server`, "the API server's URL", 'nothing');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new KubeconfigError(
      e.file,
      `${e.path}.server`,
      'an https:// (or http://) URL',
      JSON.stringify(server),
    );
  const proxy = e.value['proxy-url'];
  if (proxy !== undefined)
    throw new KubeconfigError(
      e.file,
      `${e.path}.proxy-url`,
      'no proxy-url: specforge connects to the API server directly and does not support proxies',
      found(proxy),
      'Remove proxy-url where the API server is reachable directly, or run specforge from where it is; specforge never ignores it.',
    );
  flag(e, 'disable-compression'); // specforge never asks for compressed responses: honoured either way
  const insecure = flag(e, 'insecure-skip-tls-verify') ?? false;
  const ca = bytes(e, 'certificate-authority-data', 'certificate-authority');
  if (insecure && ca !== undefined)
    throw new KubeconfigError(
      e.file,
      `${e.path}.insecure-skip-tls-verify`,
      'not both a certificate authority and insecure-skip-tls-verify',
      'both',
      'kubectl refuses this too; keep one.',
    );
  const servername = text(e, 'tls-server-name');
  return {
    server,
    insecure,
    raw: e.value,
    ...(ca === undefined ? {} : { ca }),
    ...(servername === undefined ? {} : { servername }),
  };
}

function userConfig(e: Entry): UserConfig {
  only(e, USER_FIELDS);
  if (e.value['auth-provider'] !== undefined)
    throw new KubeconfigError(
      e.file,
      `${e.path}.auth-provider`,
      'no auth-provider: kubectl removed the gcp and azure providers, and specforge supports none',
      found(e.value['auth-provider']),
      "Use an exec plugin instead (gke-gcloud-auth-plugin, kubelogin, or your OIDC tool's).",
    );
  const token = text(e, 'token');
  const tokenFile = text(e, 'tokenFile');
  const username = text(e, 'username');
  const password = text(e, 'password');
  const cert = bytes(e, 'client-certificate-data', 'client-certificate');
  const key = bytes(e, 'client-key-data', 'client-key');
  if ((cert === undefined) !== (key === undefined))
    throw new KubeconfigError(
      e.file,
      `${e.path}.${cert === undefined ? 'client-certificate' : 'client-key'}`,
      'a client certificate and its key, both',
      'only one of them',
    );
  const exec = e.value.exec === undefined ? undefined : execConfig(e);
  const methods = [
    ...(token !== undefined && token !== '' ? ['token'] : []),
    ...(username !== undefined || password !== undefined ? ['username/password'] : []),
    ...(exec === undefined ? [] : ['exec']),
  ];
  if (methods.length > 1)
    throw new KubeconfigError(
      e.file,
      e.path,
      'one authentication method',
      methods.join(' and '),
      'kubectl refuses more than one too; keep one.',
    );
  const impersonate = impersonation(e);
  return {
    ...(token === undefined || token === '' ? {} : { token }),
    ...(tokenFile === undefined ? {} : { tokenFile: relative(e, tokenFile) }),
    ...(username === undefined && password === undefined
      ? {}
      : { basicAuth: `${username ?? ''}:${password ?? ''}` }),
    ...(cert === undefined || key === undefined ? {} : { cert, key }),
    ...(exec === undefined ? {} : { exec }),
    ...(impersonate === undefined ? {} : { impersonate }),
  };
}

function impersonation(e: Entry): Impersonation | undefined {
  const user = text(e, 'as');
  const uid = text(e, 'as-uid');
  const groups = texts(e, 'as-groups');
  const extra = extraOf(e);
  if (user === undefined || user === '') {
    const asked = uid !== undefined || groups.length > 0 || Object.keys(extra).length > 0;
    if (asked)
      throw new KubeconfigError(
        e.file,
        `${e.path}.as`,
        'the user to impersonate, with as-uid, as-groups or as-user-extra',
        'nothing',
        'kubectl refuses this too: name the user in as.',
      );
    return undefined;
  }
  return { user, groups, extra, ...(uid === undefined || uid === '' ? {} : { uid }) };
}

function extraOf(e: Entry): Record<string, string[]> {
  const v = e.value['as-user-extra'];
  if (v === undefined || v === null) return {};
  const bad = (): never => {
    throw new KubeconfigError(
      e.file,
      `${e.path}.as-user-extra`,
      'a mapping of keys to lists of strings',
      found(v),
    );
  };
  if (typeof v !== 'object' || Array.isArray(v)) bad();
  const out: Record<string, string[]> = {};
  for (const [k, list] of Object.entries(v as Json)) {
    if (!Array.isArray(list) || !list.every((s) => typeof s === 'string')) bad();
    out[k] = list as string[];
  }
  return out;
}

function execConfig(e: Entry): ExecConfig {
  const path = `${e.path}.exec`;
  const v = e.value.exec;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new KubeconfigError(
      e.file,
      path,
      'an exec plugin (a mapping with command and apiVersion)',
      found(v),
    );
  const x: Entry = { ...e, value: v as Json, path };
  only(x, EXEC_FIELDS);
  const command = text(x, 'command');
  if (command === undefined || command === '')
    throw new KubeconfigError(e.file, `${path}.command`, 'the plugin command', 'nothing');
  const apiVersion = text(x, 'apiVersion');
  if (apiVersion === undefined || !EXEC_VERSIONS.includes(apiVersion))
    throw new KubeconfigError(
      e.file,
      `${path}.apiVersion`,
      `one of ${EXEC_VERSIONS.join(', ')}`,
      found(apiVersion),
    );
  const mode = text(x, 'interactiveMode') ?? (apiVersion.endsWith('v1beta1') ? 'IfAvailable' : undefined);
  if (mode !== 'Never' && mode !== 'IfAvailable')
    throw new KubeconfigError(
      e.file,
      `${path}.interactiveMode`,
      'Never or IfAvailable: specforge runs the plugin without a terminal',
      found(mode),
      mode === undefined
        ? 'client.authentication.k8s.io/v1 requires it, as in kubectl.'
        : 'Log in with the plugin first, so that it needs no prompt.',
    );
  const env = x.value.env ?? [];
  if (
    !Array.isArray(env) ||
    !env.every(
      (i: unknown) =>
        typeof (i as Json)?.name === 'string' &&
        (i as Json).name !== '' &&
        typeof (i as Json).value === 'string',
    )
  )
    throw new KubeconfigError(e.file, `${path}.env`, 'a list of {name, value} strings', found(env));
  const installHint = text(x, 'installHint');
  return {
    command: command.includes('/') && !isAbsolute(command) ? join(dirname(e.file), command) : command,
    args: texts(x, 'args'),
    env: env as { name: string; value: string }[],
    apiVersion,
    provideClusterInfo: flag(x, 'provideClusterInfo') ?? false,
    file: e.file,
    path,
    ...(installHint === undefined ? {} : { installHint }),
  };
}

/** Refuses a field of `e` that is not one of `known`. */
function only(e: Entry, known: readonly string[]): void {
  for (const key of Object.keys(e.value))
    if (!known.includes(key))
      throw new KubeconfigError(
        e.file,
        `${e.path}.${key}`,
        `one of ${known.join(', ')}`,
        `the unknown field ${JSON.stringify(key)}`,
        'Remove it or fix its spelling: specforge does not ignore what it does not know.',
      );
}

function text(e: Entry, key: string): string | undefined {
  const v = e.value[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new KubeconfigError(e.file, `${e.path}.${key}`, 'a string', found(v));
  return v;
}

function texts(e: Entry, key: string): string[] {
  const v = e.value[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
    throw new KubeconfigError(e.file, `${e.path}.${key}`, 'a list of strings', found(v));
  return v as string[];
}

function flag(e: Entry, key: string): boolean | undefined {
  const v = e.value[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean')
    throw new KubeconfigError(e.file, `${e.path}.${key}`, 'true or false', found(v));
  return v;
}

function relative(e: Entry, path: string): string {
  return isAbsolute(path) ? path : join(dirname(e.file), path);
}

/** The bytes of `<dataKey>` (base64) or of the file `<fileKey>` names; both set is refused, as kubectl does. */
function bytes(e: Entry, dataKey: string, fileKey: string): Buffer | undefined {
  const data = text(e, dataKey);
  const file = text(e, fileKey);
  if (data !== undefined && file !== undefined && data !== '' && file !== '')
    throw new KubeconfigError(
      e.file,
      `${e.path}.${dataKey}`,
      `either ${dataKey} or ${fileKey}`,
      'both',
      'kubectl refuses this too; keep one.',
    );
  if (data !== undefined && data !== '') {
    if (!/^[A-Za-z0-9+/=\s]+$/.test(data))
      throw new KubeconfigError(
        e.file,
        `${e.path}.${dataKey}`,
        'base64 data',
        'characters base64 does not use',
      );
    return Buffer.from(data, 'base64');
  }
  if (file === undefined || file === '') return undefined;
  try {
    return readFileSync(relative(e, file));
  } catch (err) {
    throw new KubeconfigError(
      e.file,
      `${e.path}.${fileKey}`,
      'a readable file',
      `${JSON.stringify(file)} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    );
  }
}
