import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBERNETES_RELEASE } from '../../src/rules/kubernetes-release.js';
import { run } from '../support/tmp.js';

/**
 * The gate names the Kubernetes release it checks for, and it is the release whose OpenAPI documents are vendored
 * (test/cluster/kubernetes-release.test.ts holds it to the test kube-apiserver's `/version`).
 */

const ROOT = resolve(import.meta.dirname, '../..');

describe('the Kubernetes release the gate checks for', () => {
  it('is the release the vendored OpenAPI documents were taken from', () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'schemas/vendor/kubernetes/index.json'), 'utf8')) as {
      release: string;
    };
    expect(KUBERNETES_RELEASE).toBe(index.release);
  });

  it('is the release the test control plane is built from', () => {
    const script = readFileSync(join(ROOT, 'scripts/build-control-plane.sh'), 'utf8');
    expect(/KUBE_VERSION="\$\{KUBE_VERSION:-(v[0-9.]+)\}"/.exec(script)?.[1]).toBe(KUBERNETES_RELEASE);
  });

  it.each([[['--help']], [['render', '--help']], [['validate', '--help']], [['check', '--help']]])(
    'is named by specforge %j',
    async (argv) => {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(
        new RegExp(`(Kubernetes|kube-apiserver) ${KUBERNETES_RELEASE.replaceAll('.', '\\.')}[: ]`),
      );
    },
  );
});
