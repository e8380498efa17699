import { describe, expect, it } from 'vitest';
import { changedPaths, compareFiles } from '../../../src/diff/comparison/compare.js';
import { effectsOf } from '../../../src/diff/effects/effects.js';
import { appObjects, file } from '../support.js';

const side = (files: Record<string, string>, where = 'dist') => ({
  files: new Map(Object.entries(files)),
  where,
});

describe('comparing two renders', () => {
  it('reports objects added, removed and changed, in chart, kind, namespace, name order', () => {
    const before = side({ 'b/web.yaml': file(appObjects('web')), 'a/old.yaml': file(appObjects('old')) });
    const after = side({
      'b/web.yaml': file(appObjects('web', { replicas: 3 })),
      'a/new.yaml': file(appObjects('zz-new')),
    });
    const report = compareFiles(before, after, effectsOf);
    expect(report.objects.map((o) => `${o.ref.chart} ${o.ref.kind} ${o.ref.name} ${o.change}`)).toEqual([
      'a Deployment old removed',
      'a Deployment zz-new added',
      'a Service old removed',
      'a Service zz-new added',
      'b Deployment web changed',
    ]);
  });

  it('parses only files whose bytes differ, so a broken file that did not change is not read', () => {
    const broken = 'a: [\n';
    const before = side({ 'a/same.yaml': broken, 'a/web.yaml': file(appObjects('web')) });
    const after = side({
      'a/same.yaml': broken,
      'a/web.yaml': file(appObjects('web', { image: 'nginx:2' })),
    });
    expect(changedPaths(before.files, after.files)).toEqual(['a/web.yaml']);
    expect(compareFiles(before, after, effectsOf).objects).toHaveLength(1);
  });

  it('sees no change when only a header comment or the key order differs', () => {
    const [d] = appObjects('web');
    const reordered = { kind: d!.kind, apiVersion: d!.apiVersion, spec: d!.spec, metadata: d!.metadata };
    const report = compareFiles(
      side({ 'a/x.yaml': file([d]) }),
      side({ 'a/x.yaml': `# other\n${file([reordered])}` }),
      effectsOf,
    );
    expect(report.objects).toEqual([]);
  });

  it('follows an object that moved to another file of its chart', () => {
    const report = compareFiles(
      side({ 'a/appservice.web.yaml': file(appObjects('web')) }),
      side({ 'a/myapp.web.yaml': file(appObjects('web', { replicas: 5 })) }),
      effectsOf,
    );
    expect(report.objects.map((o) => `${o.ref.kind} ${o.change} ${o.file}`)).toEqual([
      'Deployment changed a/myapp.web.yaml',
    ]);
  });

  it('ignores files that hold no objects: kustomizations, other files', () => {
    const report = compareFiles(
      side({
        'a/kustomization.yaml':
          'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [x.yaml]\n',
      }),
      side({
        'a/kustomization.yaml':
          'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [y.yaml]\n',
        'a/README.md': 'x',
      }),
      effectsOf,
    );
    expect(report.objects).toEqual([]);
  });
});
