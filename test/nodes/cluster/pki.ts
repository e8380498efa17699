/**
 * The node cluster's credentials, made with openssl: a CA, kube-apiserver's serving certificate, its client
 * certificate towards the kubelets, the service-account signing keys, and one static bearer token per identity
 * (admin, kube-controller-manager, kube-scheduler, kube-proxy, each node) so RBAC's default bindings and the Node
 * authorizer apply as in a real cluster.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './netns.js';

export interface Pki {
  readonly dir: string;
  readonly ca: string;
  /** Bearer token of each identity, by kubeconfig name (admin, kcm, scheduler, proxy, node-1, …). */
  readonly tokens: Readonly<Record<string, string>>;
}

export interface PkiOptions {
  readonly dir: string;
  /** Addresses the API server's certificate names (its node address, loopback, the `kubernetes` Service). */
  readonly apiserverIps: readonly string[];
  readonly nodes: readonly string[];
}

function cert(dir: string, name: string, subject: string, ext: string): void {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const extFile = join(dir, `${name}.ext`);
  writeFileSync(extFile, ext);
  run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', subject]);
  run('openssl', [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    join(dir, 'ca.crt'),
    '-CAkey',
    join(dir, 'ca.key'),
    '-CAcreateserial',
    '-out',
    join(dir, `${name}.crt`),
    '-days',
    '3',
    '-extfile',
    extFile,
  ]);
}

export function makePki(options: PkiOptions): Pki {
  const { dir } = options;
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    join(dir, 'ca.key'),
    '-out',
    join(dir, 'ca.crt'),
    '-days',
    '3',
    '-subj',
    '/CN=specforge-test-ca',
  ]);
  const sans = [
    ...options.apiserverIps.map((ip) => `IP:${ip}`),
    'DNS:kubernetes',
    'DNS:kubernetes.default',
    'DNS:kubernetes.default.svc',
    'DNS:kubernetes.default.svc.cluster.local',
  ];
  cert(
    dir,
    'apiserver',
    '/CN=kube-apiserver',
    `subjectAltName=${sans.join(',')}\nextendedKeyUsage=serverAuth\n`,
  );
  // kube-apiserver's identity towards the kubelets (logs, exec); system:masters so their webhook authorizer allows it
  cert(
    dir,
    'apiserver-kubelet-client',
    '/O=system:masters/CN=kube-apiserver-kubelet-client',
    'extendedKeyUsage=clientAuth\n',
  );
  run('openssl', ['genrsa', '-out', join(dir, 'sa.key'), '2048']);
  run('openssl', ['rsa', '-in', join(dir, 'sa.key'), '-pubout', '-out', join(dir, 'sa.pub')]);
  const identities: [string, string, string][] = [
    ['admin', 'admin', 'system:masters'],
    ['kcm', 'system:kube-controller-manager', ''],
    ['scheduler', 'system:kube-scheduler', ''],
    ['proxy', 'system:kube-proxy', ''],
    ...options.nodes.map((n): [string, string, string] => [n, `system:node:${n}`, 'system:nodes']),
  ];
  const tokens: Record<string, string> = {};
  const csv: string[] = [];
  for (const [file, user, group] of identities) {
    const token = randomBytes(16).toString('hex');
    tokens[file] = token;
    csv.push(`${token},${user},${user},"${group}"`);
  }
  writeFileSync(join(dir, 'tokens.csv'), `${csv.join('\n')}\n`);
  return { dir, ca: join(dir, 'ca.crt'), tokens };
}

/** A kubeconfig file for one identity, trusting the cluster's CA. */
export function writeKubeconfig(file: string, server: string, ca: string, token: string): void {
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: nodes, cluster: {server: "${server}", certificate-authority: "${ca}"}}]`,
      `users: [{name: user, user: {token: "${token}"}}]`,
      'contexts: [{name: nodes, context: {cluster: nodes, user: user}}]',
      'current-context: nodes',
      '',
    ].join('\n'),
  );
}
