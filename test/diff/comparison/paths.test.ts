import { describe, expect, it } from 'vitest';
import { formatPath, isUnder, pathPattern } from '../../../src/diff/comparison/paths.js';

describe('field paths', () => {
  it('read as keys, merge-key selectors and indexes', () => {
    expect(
      formatPath(['spec', 'template', 'spec', 'containers', { key: 'name', value: 'web' }, 'image']),
    ).toBe('spec.template.spec.containers[name=web].image');
    expect(formatPath(['spec', 'ports', { key: 'port', value: 80 }, 'nodePort'])).toBe(
      'spec.ports[port=80].nodePort',
    );
    expect(formatPath(['spec', 'args', 0])).toBe('spec.args[0]');
  });

  it('quote keys and selector values that are not plain', () => {
    expect(formatPath(['metadata', 'labels', 'app.kubernetes.io/name'])).toBe(
      'metadata.labels["app.kubernetes.io/name"]',
    );
    expect(formatPath(['env', { key: 'name', value: 'A B' }])).toBe('env[name="A B"]');
  });

  it('leave list positions out of the pattern the tables match', () => {
    expect(pathPattern(['spec', 'containers', { key: 'name', value: 'web' }, 'ports', 0])).toBe(
      'spec.containers[].ports[]',
    );
  });

  it('put a path under a prefix only at a segment boundary', () => {
    expect(isUnder('spec.ports[].port', 'spec.ports')).toBe(true);
    expect(isUnder('spec.ports', 'spec.ports')).toBe(true);
    expect(isUnder('spec.portsExtra', 'spec.ports')).toBe(false);
  });
});
