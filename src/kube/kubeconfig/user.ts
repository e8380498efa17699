/**
 * A kubeconfig user, checked as kubectl checks it: one authentication method (token or token file, basic auth,
 * exec plugin; a client certificate beside any), impersonation only with a user to impersonate, an exec plugin with
 * the fields client-go requires; `auth-provider` refused (kubectl removed its providers).
 */
import { isAbsolute } from 'node:path';
import { KubeconfigError, found } from './error.js';
import { at, bytes, flag, nonEmpty, only, relative, text, texts } from './fields.js';
import { isMapping, type Entry } from './file.js';

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

export function userConfig(e: Entry): UserConfig {
  only(e, USER_FIELDS);
  if (e.value['auth-provider'] !== undefined)
    throw new KubeconfigError(
      at(e, 'auth-provider'),
      'no auth-provider: kubectl removed the gcp and azure providers, and specforge supports none',
      found(e.value['auth-provider']),
      "Use an exec plugin instead (gke-gcloud-auth-plugin, kubelogin, or your OIDC tool's).",
    );
  const token = nonEmpty(e, 'token');
  const tokenFile = nonEmpty(e, 'tokenFile');
  const basicAuth = basicAuthOf(e);
  const exec = e.value.exec === undefined ? undefined : execConfig(e);
  const methods = [
    ...(token === undefined ? [] : ['token']),
    ...(basicAuth === undefined ? [] : ['username/password']),
    ...(exec === undefined ? [] : ['exec']),
  ];
  if (methods.length > 1)
    throw new KubeconfigError(
      { file: e.file, path: e.path },
      'one authentication method',
      methods.join(' and '),
      'kubectl refuses more than one too; keep one.',
    );
  const impersonate = impersonation(e);
  return {
    ...(token === undefined ? {} : { token }),
    ...(tokenFile === undefined ? {} : { tokenFile: relative(e, tokenFile) }),
    ...(basicAuth === undefined ? {} : { basicAuth }),
    ...clientCertificate(e),
    ...(exec === undefined ? {} : { exec }),
    ...(impersonate === undefined ? {} : { impersonate }),
  };
}

function basicAuthOf(e: Entry): string | undefined {
  const username = text(e, 'username');
  const password = text(e, 'password');
  return username === undefined && password === undefined ? undefined : `${username ?? ''}:${password ?? ''}`;
}

function clientCertificate(e: Entry): { cert?: Buffer; key?: Buffer } {
  const cert = bytes(e, 'client-certificate-data', 'client-certificate');
  const key = bytes(e, 'client-key-data', 'client-key');
  if ((cert === undefined) !== (key === undefined))
    throw new KubeconfigError(
      at(e, cert === undefined ? 'client-certificate' : 'client-key'),
      'a client certificate and its key, both',
      'only one of them',
    );
  return cert === undefined || key === undefined ? {} : { cert, key };
}

function impersonation(e: Entry): Impersonation | undefined {
  const user = nonEmpty(e, 'as');
  const uid = nonEmpty(e, 'as-uid');
  const groups = texts(e, 'as-groups');
  const extra = extraOf(e);
  if (user !== undefined) return { user, groups, extra, ...(uid === undefined ? {} : { uid }) };
  if (uid !== undefined || groups.length > 0 || Object.keys(extra).length > 0)
    throw new KubeconfigError(
      at(e, 'as'),
      'the user to impersonate, with as-uid, as-groups or as-user-extra',
      'nothing',
      'kubectl refuses this too: name the user in as.',
    );
  return undefined;
}

function extraOf(e: Entry): Record<string, string[]> {
  const v = e.value['as-user-extra'];
  if (v === undefined || v === null) return {};
  const lists = isMapping(v) ? Object.entries(v) : undefined;
  if (
    lists === undefined ||
    !lists.every(([, l]) => Array.isArray(l) && l.every((s) => typeof s === 'string'))
  )
    throw new KubeconfigError(at(e, 'as-user-extra'), 'a mapping of keys to lists of strings', found(v));
  return Object.fromEntries(lists) as Record<string, string[]>;
}

function execConfig(e: Entry): ExecConfig {
  const v = e.value.exec;
  if (!isMapping(v))
    throw new KubeconfigError(
      at(e, 'exec'),
      'an exec plugin (a mapping with command and apiVersion)',
      found(v),
    );
  const x: Entry = { ...e, value: v, path: `${e.path}.exec` };
  only(x, EXEC_FIELDS);
  const command = nonEmpty(x, 'command');
  if (command === undefined) throw new KubeconfigError(at(x, 'command'), 'the plugin command', 'nothing');
  const apiVersion = text(x, 'apiVersion');
  if (apiVersion === undefined || !EXEC_VERSIONS.includes(apiVersion))
    throw new KubeconfigError(at(x, 'apiVersion'), `one of ${EXEC_VERSIONS.join(', ')}`, found(apiVersion));
  checkInteractiveMode(x, apiVersion);
  const installHint = text(x, 'installHint');
  return {
    // A command with a path separator is relative to the kubeconfig file, as client-go resolves it.
    command: command.includes('/') && !isAbsolute(command) ? relative(e, command) : command,
    args: texts(x, 'args'),
    env: envOf(x),
    apiVersion,
    provideClusterInfo: flag(x, 'provideClusterInfo') ?? false,
    file: x.file,
    path: x.path,
    ...(installHint === undefined ? {} : { installHint }),
  };
}

/** Never and IfAvailable run without a terminal; Always needs one, which specforge does not give a plugin. */
function checkInteractiveMode(x: Entry, apiVersion: string): void {
  const mode = text(x, 'interactiveMode') ?? (apiVersion.endsWith('v1beta1') ? 'IfAvailable' : undefined);
  if (mode === 'Never' || mode === 'IfAvailable') return;
  throw new KubeconfigError(
    at(x, 'interactiveMode'),
    'Never or IfAvailable: specforge runs the plugin without a terminal',
    found(mode),
    mode === undefined
      ? 'client.authentication.k8s.io/v1 requires it, as in kubectl.'
      : 'Log in with the plugin first, so that it needs no prompt.',
  );
}

function envOf(x: Entry): { name: string; value: string }[] {
  const env = x.value.env ?? [];
  const ok = (i: unknown): boolean =>
    isMapping(i) && typeof i.name === 'string' && i.name !== '' && typeof i.value === 'string';
  if (!Array.isArray(env) || !env.every(ok))
    throw new KubeconfigError(at(x, 'env'), 'a list of {name, value} strings', found(env));
  return env as { name: string; value: string }[];
}
