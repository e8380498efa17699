/**
 * schemas/vendor/ is exactly what scripts/vendor-crd-schemas.mjs makes of the CRDs of the pinned Argo CD and Flux
 * releases (scripts/build-gitops-tools.sh fetches them), of OpenShift's Route and of the Gateway API's standard
 * channel (test/fixtures/): the objects are checked against the real schemas, not a stale copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';
import { gitopsDescribe, ROOT, run } from './gitops-tools.js';

gitopsDescribe('vendored CRD schemas', (tools) => {
  it.each([
    'argoproj.io_v1alpha1_application.json',
    'kustomize.toolkit.fluxcd.io_v1_kustomization.json',
    'route.openshift.io_v1_route.json',
    ...readdirSync(join(ROOT, 'schemas/vendor')).filter((f) => f.startsWith('gateway.networking.k8s.io_')),
  ])('schemas/vendor/%s equals its CRD in the pinned release', (file) => {
    const out = tempDir();
    run(join(ROOT, 'node_modules/.bin/node'), [join(ROOT, 'scripts/vendor-crd-schemas.mjs'), tools.crds], {
      cwd: out,
    });
    expect(readFileSync(join(out, 'schemas/vendor', file), 'utf8')).toBe(
      readFileSync(join(ROOT, 'schemas/vendor', file), 'utf8'),
    );
  });
});
