/**
 * Runs a kubeconfig exec credential plugin as client-go does: KUBERNETES_EXEC_INFO carries an ExecCredential (with
 * the cluster when provideClusterInfo), no terminal, the entry's env on top of the process's; its output must be an
 * ExecCredential of the same apiVersion with `status.token` or `status.clientCertificateData` and
 * `clientKeyData`. Anything else is named in a sentence, with the plugin's installHint when it cannot be run.
 */
import { execFile } from 'node:child_process';
import { KubeconfigError, found } from './error.js';
import type { ClusterConfig, ExecConfig } from './entries.js';
import { isMapping } from './file.js';

type Json = Record<string, unknown>;

/** What a plugin gave. */
export interface ExecCredential {
  readonly token?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** When to run the plugin again (ms since the epoch); never when absent. */
  readonly expiresAt?: number;
}

const PLUGIN_TIMEOUT_MS = 120_000;

/** Runs the plugin once and checks what it prints. */
export async function runExecPlugin(exec: ExecConfig, cluster: ClusterConfig): Promise<ExecCredential> {
  const stdout = await run(exec, cluster);
  return credentialOf(exec, stdout);
}

function run(exec: ExecConfig, cluster: ClusterConfig): Promise<string> {
  const info = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(exec.provideClusterInfo ? { cluster: clusterInfo(cluster) } : {}) },
  };
  const env = {
    ...process.env,
    ...Object.fromEntries(exec.env.map((e) => [e.name, e.value])),
    KUBERNETES_EXEC_INFO: JSON.stringify(info),
  };
  return new Promise((resolve, reject) => {
    execFile(
      exec.command,
      [...exec.args],
      { env, timeout: PLUGIN_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err === null) {
          resolve(stdout);
          return;
        }
        const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
        const why =
          e.code === 'ENOENT'
            ? `no command ${JSON.stringify(exec.command)} on the PATH`
            : e.killed === true
              ? `no answer within ${PLUGIN_TIMEOUT_MS / 1000} s`
              : `exit code ${String(e.code)}${firstLine(stderr)}`;
        reject(
          new KubeconfigError(
            { file: exec.file, path: `${exec.path}.command` },
            'a plugin that prints an ExecCredential',
            why,
            exec.installHint ?? 'Run the plugin by hand to see why.',
          ),
        );
      },
    );
  });
}

function firstLine(stderr: string): string {
  const line = stderr.trim().split('\n')[0] ?? '';
  return line === '' ? '' : `: ${line.slice(0, 200)}`;
}

/** The ExecCredential's cluster, as client-go gives it to a plugin that asks. */
function clusterInfo(c: ClusterConfig): Json {
  const ext = (c.raw.extensions ?? []) as Json[];
  const config = Array.isArray(ext)
    ? ext.find((x) => x.name === 'client.authentication.k8s.io/exec')?.extension
    : undefined;
  return {
    server: c.server,
    ...(c.servername === undefined ? {} : { 'tls-server-name': c.servername }),
    ...(c.insecure ? { 'insecure-skip-tls-verify': true } : {}),
    ...(c.ca === undefined ? {} : { 'certificate-authority-data': c.ca.toString('base64') }),
    ...(config === undefined ? {} : { config }),
  };
}

/** The credential in a plugin's output, checked. Pure. */
export function credentialOf(exec: ExecConfig, stdout: string): ExecCredential {
  const fail = failure(exec);
  const status = statusOf(exec, stdout);
  const token = typeof status.token === 'string' && status.token !== '' ? status.token : undefined;
  const pair = certificatePair(status, fail);
  if (token === undefined && pair === undefined) fail(`status ${found(status)} with neither`);
  const expiresAt = expiryOf(status, fail);
  return {
    ...(token === undefined ? {} : { token }),
    ...(pair ?? {}),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

type Fail = (what: string) => never;

/** Throws the sentence for a plugin whose output is not what `exec` asks for. */
function failure(exec: ExecConfig): Fail {
  const expected = `an ExecCredential (${exec.apiVersion}) with status.token, or status.clientCertificateData and status.clientKeyData`;
  return (what) => {
    throw new KubeconfigError(
      { file: exec.file, path: `${exec.path}.command` },
      `the plugin to print ${expected}`,
      what,
      'Run the plugin by hand to see what it prints.',
    );
  };
}

/** The output's `status`, after checking it is an ExecCredential of the plugin's apiVersion. */
function statusOf(exec: ExecConfig, stdout: string): Json {
  const fail = failure(exec);
  let out: unknown;
  try {
    out = JSON.parse(stdout);
  } catch {
    const text = stdout.trim();
    return fail(text === '' ? 'no output' : `output that is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (!isMapping(out)) return fail(found(out));
  if (Object.keys(out).length === 0) return fail('{}, an empty mapping');
  if (out.kind !== 'ExecCredential') fail(`kind ${found(out.kind)}`);
  if (out.apiVersion !== exec.apiVersion) fail(`apiVersion ${found(out.apiVersion)}`);
  if (!isMapping(out.status)) return fail(`status ${found(out.status)}`);
  return out.status;
}

/** The client certificate and key, both or neither. */
function certificatePair(status: Json, fail: Fail): { cert: Buffer; key: Buffer } | undefined {
  const cert = status.clientCertificateData;
  const key = status.clientKeyData;
  if (cert === undefined && key === undefined) return undefined;
  if (typeof cert !== 'string' || cert === '' || typeof key !== 'string' || key === '')
    return fail('a client certificate without its key (or a key without its certificate)');
  return { cert: Buffer.from(cert), key: Buffer.from(key) };
}

function expiryOf(status: Json, fail: Fail): number | undefined {
  const t = status.expirationTimestamp;
  if (t === undefined || t === null) return undefined;
  const at = typeof t === 'string' ? Date.parse(t) : NaN;
  if (Number.isNaN(at)) fail(`status.expirationTimestamp ${found(t)}, not an RFC 3339 time`);
  return at;
}
