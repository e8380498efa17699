import { describe, expect, it } from 'vitest';
import { ComparedFiles } from '../../src/output/compared-files.js';

describe('ComparedFiles', () => {
  it('keeps each file and its status, by directory, through packing one directory when the next begins', () => {
    const c = new ComparedFiles();
    c.add('web/a.yaml', 'added');
    c.add('web/b.yaml', 'same');
    c.add('db/new\nline.yaml', 'changed');
    c.add('db/c.yaml', 'same');
    c.add('top.yaml', 'added');
    expect(c.paths('added')).toEqual(['web/a.yaml', 'top.yaml']);
    expect(c.paths('same')).toEqual(['web/b.yaml', 'db/c.yaml']);
    expect(c.paths('changed')).toEqual(['db/new\nline.yaml']);
    for (const path of ['web/a.yaml', 'web/b.yaml', 'db/new\nline.yaml', 'db/c.yaml', 'top.yaml'])
      expect(c.has(path)).toBe(true);
    expect(c.has('web/c.yaml')).toBe(false);
    expect(c.has('other/a.yaml')).toBe(false);
  });

  it('forgets a directory, packed or still being compared, giving back its paths', () => {
    const c = new ComparedFiles();
    c.add('web/a.yaml', 'added');
    c.add('web/b.yaml', 'added');
    c.add('db/c.yaml', 'same');
    expect(c.remove('web')).toEqual(['web/a.yaml', 'web/b.yaml']);
    expect(c.remove('db')).toEqual(['db/c.yaml']);
    expect(c.remove('db')).toEqual([]);
    expect(c.paths('added')).toEqual([]);
    expect(c.has('web/a.yaml')).toBe(false);
    c.add('web/a.yaml', 'changed');
    expect(c.paths('changed')).toEqual(['web/a.yaml']);
  });

  it('takes a directory again after another, keeping what it had', () => {
    const c = new ComparedFiles();
    c.add('_argocd/a.yaml', 'added');
    c.add('_flux/a.yaml', 'added');
    c.add('_argocd/kustomization.yaml', 'same');
    expect(c.has('_argocd/a.yaml')).toBe(true);
    expect(c.has('_argocd/kustomization.yaml')).toBe(true);
    expect(c.remove('_argocd').sort()).toEqual(['_argocd/a.yaml', '_argocd/kustomization.yaml']);
    expect(c.paths('added')).toEqual(['_flux/a.yaml']);
  });
});
