import { describe, expect, it } from 'vitest';
import { specFileName } from '../../../src/migrate/import/spec-file.js';

const cr = (apiVersion: string, kind: string, name: string, namespace?: string) => ({
  apiVersion,
  kind,
  metadata: { name, ...(namespace === undefined ? {} : { namespace }) },
});

describe('the spec file an imported resource goes to', () => {
  it('is named by kind, group, namespace and name', () => {
    expect(specFileName(cr('app.example.com/v1', 'AppService', 'web', 'shop'))).toBe(
      'appservice_app.example.com_shop_web.yaml',
    );
    expect(specFileName(cr('nodes.lailin.xyz/v1', 'NodePool', 'gpu'))).toBe(
      'nodepool_nodes.lailin.xyz_gpu.yaml',
    );
  });

  it('differs for two groups, two namespaces or dotted names that read alike', () => {
    const names = [
      cr('app.example.com/v1', 'AppService', 'web', 'shop'),
      cr('batch.schwarzeni.github.com/v1alpha1', 'AppService', 'web', 'shop'),
      cr('app.example.com/v1', 'AppService', 'shop.web', 'a'),
      cr('app.example.com/v1', 'AppService', 'web', 'a-shop'),
      cr('app.example/v1', 'AppService', 'com.shop.web', 'a'),
    ].map(specFileName);
    expect(new Set(names).size).toBe(names.length);
  });

  it('stays within 255 bytes for the longest names, and unique', () => {
    const long = (c: string) => cr('app.example.com/v1', 'AppService', `${'a'.repeat(250)}${c}`, 'shop');
    const a = specFileName(long('x'));
    const b = specFileName(long('y'));
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(255);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^appservice_app\.example\.com_shop_a+_[0-9a-f]{16}\.yaml$/);
  });
});
