/**
 * The identity a kubeconfig names is the one the API server sees: impersonation (`as`, `as-groups`) reaches the real
 * API server as Impersonate-* headers on every request. An impersonated user without RBAC rights is refused (403)
 * where the admin succeeds; the same user with the group system:masters succeeds, so the groups travel too.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { run, tempDir } from '../support/tmp.js';
import { clusterDescribe, controlPlane, uniq } from './helpers.js';

clusterDescribe('specforge import runs as the identity of its kubeconfig', () => {
  /** A kubeconfig for the test API server with the admin's token and `user` (its `as...` fields). */
  const kubeconfig = (user: string): string => {
    const info = controlPlane();
    if (info === null) throw new Error('no control plane');
    const path = join(tempDir('specforge-identity-'), 'config');
    writeFileSync(
      path,
      [
        'current-context: test',
        'contexts: [{name: test, context: {cluster: test, user: admin}}]',
        `clusters: [{name: test, cluster: {server: "${info.server}", insecure-skip-tls-verify: true}}]`,
        `users: [{name: admin, user: {token: "${info.token}"${user}}}]`,
      ].join('\n'),
    );
    return path;
  };
  const importWith = (user: string) =>
    run([
      'import',
      '--chart',
      join(tempDir(), 'chart'),
      '-n',
      uniq('empty'),
      '--kubeconfig',
      kubeconfig(user),
    ]);

  it('reads as the admin without impersonation', async () => {
    const r = await importWith('');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('is refused (403) as an impersonated user without rights, and names the user', async () => {
    const r = await importWith(', as: specforge-nobody');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /403 Forbidden .*"specforge-nobody" cannot list resource "customresourcedefinitions"/,
    );
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('sends the impersonated groups: the same user in system:masters may read', async () => {
    const r = await importWith(', as: specforge-nobody, as-groups: ["system:masters"]');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('sends the impersonated uid and extras, which the API server checks the admin may impersonate', async () => {
    const r = await importWith(
      ', as: specforge-nobody, as-uid: "1234", as-groups: ["system:masters"], as-user-extra: {scopes: [read]}',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });
});
