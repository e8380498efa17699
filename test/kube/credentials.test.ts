import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCredentials, inClusterCredentials, loadCredentials } from '../../src/kube/credentials.js';

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'specforge-kc-'));
}

function kubeconfig(d: string, user: string, extraCluster = ''): string {
  const path = join(d, 'config');
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: c',
      'contexts: [{name: c, context: {cluster: k, user: u}}, {name: other, context: {cluster: k, user: v}}]',
      `clusters: [{name: k, cluster: {server: "https://10.0.0.1:6443"${extraCluster}}}]`,
      `users: [{name: u, user: ${user}}, {name: v, user: {token: other}}]`,
    ].join('\n'),
  );
  return path;
}

describe('kubeconfig loading', () => {
  it('reads a bearer token and the CA of the current context', async () => {
    const d = dir();
    const ca = Buffer.from('CA PEM').toString('base64');
    const c = await fileCredentials(kubeconfig(d, '{token: abc}', `, certificate-authority-data: ${ca}`));
    expect(c?.server).toBe('https://10.0.0.1:6443');
    expect(c?.tls.ca).toEqual(Buffer.from('CA PEM'));
    expect(await c?.headers()).toEqual({ Authorization: 'Bearer abc' });
  });

  it('reads client certificates relative to the kubeconfig and honours insecure-skip-tls-verify', async () => {
    const d = dir();
    writeFileSync(join(d, 'client.crt'), 'CERT');
    writeFileSync(join(d, 'client.key'), 'KEY');
    const c = await fileCredentials(
      kubeconfig(
        d,
        '{client-certificate: client.crt, client-key: client.key}',
        ', insecure-skip-tls-verify: true',
      ),
    );
    expect(c?.tls).toMatchObject({
      cert: Buffer.from('CERT'),
      key: Buffer.from('KEY'),
      rejectUnauthorized: false,
    });
    expect(await c?.headers()).toEqual({});
  });

  it('reads a token file', async () => {
    const d = dir();
    writeFileSync(join(d, 'tok'), 'from-file\n');
    const c = await fileCredentials(kubeconfig(d, '{tokenFile: tok}'));
    expect(await c?.headers()).toEqual({ Authorization: 'Bearer from-file' });
  });

  it('names a token file it cannot read in a sentence, not in Node.js words', async () => {
    const d = dir();
    const c = await fileCredentials(kubeconfig(d, '{tokenFile: missing-token}'));
    await expect(c?.headers()).rejects.toThrow(
      new Error(
        `the bearer token file ${join(d, 'missing-token')} cannot be read (there is no such file): check the tokenFile of the kubeconfig's user (--kubeconfig, KUBECONFIG, --context).`,
      ),
    );
  });

  it('names the file and context when the context is missing', async () => {
    const d = dir();
    await expect(fileCredentials(kubeconfig(d, '{token: a}'), 'nope')).rejects.toThrow(
      /config contexts: expected a context named "nope", found only "c", "other"/,
    );
  });

  it('uses the in-cluster service account when no kubeconfig exists', async () => {
    const sa = dir();
    writeFileSync(join(sa, 'token'), 'sa-token');
    writeFileSync(join(sa, 'ca.crt'), 'SA CA');
    const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    const c = inClusterCredentials(env, sa);
    expect(c?.server).toBe('https://10.96.0.1:443');
    expect(c?.tls.ca).toEqual(Buffer.from('SA CA'));
    expect(await c?.headers()).toEqual({ Authorization: 'Bearer sa-token' });
    expect(inClusterCredentials({}, sa)).toBeUndefined();
  });

  it('prefers KUBECONFIG over in-cluster config', async () => {
    const d = dir();
    const c = await loadCredentials(undefined, { KUBECONFIG: kubeconfig(d, '{token: env}') });
    expect(await c.headers()).toEqual({ Authorization: 'Bearer env' });
  });
});
