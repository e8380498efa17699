import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childPath } from '../../src/util/child-path.js';

describe('childPath', () => {
  it('is the path join makes, for a normalized directory and a path of entry names', () => {
    const dirs = ['/', '/srv/charts', 'charts', 'charts/team-a', '/dev/shm/c100k/chart-001', 'a b/ü'];
    const rels = ['web.yaml', 'sub/web.yaml', 'a/b/c d.yml', '-x', 'x\ny.yaml'];
    for (const dir of dirs) for (const rel of rels) expect(childPath(dir, rel)).toBe(join(dir, rel));
  });

  it('does not double a directory’s trailing slash', () => {
    expect(childPath('dist/', 'web/deployment.yaml')).toBe('dist/web/deployment.yaml');
  });
});
