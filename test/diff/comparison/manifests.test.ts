import { describe, expect, it } from 'vitest';
import {
  describeRef,
  isManifestPath,
  parseManifestFile,
  refKey,
  refOf,
} from '../../../src/diff/comparison/manifests.js';

const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n';

describe('manifests of dist/', () => {
  it('are every object document of a chart file, less the kustomization and non-objects', () => {
    const text = `# header\n${deployment}---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: { name: k }\n---\n- a list\n---\njust text\n---\n`;
    const objects = parseManifestFile('shop/web.yaml', text, 'dist');
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({ chart: 'shop', file: 'shop/web.yaml' });
  });

  it('are identified by group, kind, namespace and name within their chart', () => {
    const [o] = parseManifestFile('shop/web.yaml', deployment, 'dist');
    const ref = refOf(o!);
    expect(ref).toEqual({
      chart: 'shop',
      group: 'apps',
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
    });
    expect(refKey(ref)).toBe(refKey({ ...ref, apiVersion: 'apps/v1beta2' }));
    expect(refKey(ref)).not.toBe(refKey({ ...ref, chart: 'other' }));
    expect(describeRef(ref)).toBe('Deployment shop/web');
  });

  it('come from YAML files inside chart directories only', () => {
    expect(isManifestPath('shop/web.yaml')).toBe(true);
    expect(isManifestPath('_gitops/argocd/shop.yml')).toBe(true);
    expect(isManifestPath('README.yaml')).toBe(false);
    expect(isManifestPath('shop/notes.txt')).toBe(false);
  });

  it('refuse a file that is not YAML with one sentence naming it', () => {
    expect(() => parseManifestFile('shop/web.yaml', 'a: [1,\n', 'dist')).toThrow(
      /^dist\/shop\/web\.yaml: expected YAML as specforge renders it, found text that is not valid YAML \(.+\)\. Render again/,
    );
  });
});
