/**
 * Runs a kubeconfig exec credential plugin as client-go does: KUBERNETES_EXEC_INFO carries an ExecCredential (with
 * the cluster when provideClusterInfo), no terminal, the entry's env on top of the process's; its output must be an
 * ExecCredential of the same apiVersion with `status.token` or `status.clientCertificateData` and
 * `clientKeyData`. Anything else is named in a sentence, with the plugin's installHint when it cannot be run.
 */
import { execFile } from 'node:child_process';
import { KubeconfigError, found } from './error.js';
import type { ClusterConfig, ExecConfig } from './entries.js';

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
            exec.file,
            `${exec.path}.command`,
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
  const expected = `an ExecCredential (${exec.apiVersion}) with status.token, or status.clientCertificateData and status.clientKeyData`;
  const fail = (what: string): never => {
    throw new KubeconfigError(
      exec.file,
      `${exec.path}.command`,
      `the plugin to print ${expected}`,
      what,
      'Run the plugin by hand to see what it prints.',
    );
  };
  let out: unknown;
  try {
    out = JSON.parse(stdout);
  } catch {
    fail(
      stdout.trim() === ''
        ? 'no output'
        : `output that is not JSON: ${JSON.stringify(stdout.trim().slice(0, 80))}`,
    );
  }
  if (typeof out !== 'object' || out === null || Array.isArray(out)) return fail(found(out));
  const o = out as Json;
  if (o.kind !== 'ExecCredential') fail(`kind ${found(o.kind)}`);
  if (o.apiVersion !== exec.apiVersion) fail(`apiVersion ${found(o.apiVersion)}`);
  const status = o.status as Json | undefined;
  if (typeof status !== 'object' || status === null || Array.isArray(status))
    return fail(`status ${found(status)}`);
  const token = typeof status.token === 'string' && status.token !== '' ? status.token : undefined;
  const cert = status.clientCertificateData;
  const key = status.clientKeyData;
  const pair = typeof cert === 'string' && cert !== '' && typeof key === 'string' && key !== '';
  if ((cert !== undefined || key !== undefined) && !pair)
    fail('a client certificate without its key (or a key without its certificate)');
  if (token === undefined && !pair) fail(`status ${found(status)} with neither`);
  let expiresAt: number | undefined;
  if (status.expirationTimestamp !== undefined) {
    expiresAt = typeof status.expirationTimestamp === 'string' ? Date.parse(status.expirationTimestamp) : NaN;
    if (Number.isNaN(expiresAt))
      fail(`status.expirationTimestamp ${found(status.expirationTimestamp)}, not an RFC 3339 time`);
  }
  return {
    ...(token === undefined ? {} : { token }),
    ...(pair ? { cert: Buffer.from(cert), key: Buffer.from(key) } : {}),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}
