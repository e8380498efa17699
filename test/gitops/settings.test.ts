import { describe, expect, it } from 'vitest';
import { formatError } from '../../src/specs/errors.js';
import { gitopsInEffect, parseGitopsSettings } from '../../src/gitops/settings.js';

describe('charts/gitops.yaml', () => {
  it('reads a section per tool', () => {
    const { settings, errors } = parseGitopsSettings(
      'argocd:\n  repoURL: https://git.example.com/r.git\nflux:\n  interval: 5m\n',
      'charts/gitops.yaml',
    );
    expect(errors).toEqual([]);
    expect(settings).toEqual({
      argocd: { repoURL: 'https://git.example.com/r.git' },
      flux: { interval: '5m' },
    });
  });

  it('refuses an interval Flux would refuse, naming file, line and field', () => {
    const { errors } = parseGitopsSettings('flux:\n  interval: often\n', 'charts/gitops.yaml');
    expect(errors.map(formatError)).toEqual([
      expect.stringMatching(/^charts\/gitops\.yaml:2:13 .*flux\.interval: expected/),
    ]);
  });

  it('refuses an Argo CD section without a repository', () => {
    const { errors } = parseGitopsSettings('argocd:\n  path: dist\n', 'charts/gitops.yaml');
    expect(errors.map(formatError).join('\n')).toMatch(/repoURL/);
  });

  it('turns --gitops flux into the defaults, and --gitops argocd without a repository into an error', () => {
    expect(gitopsInEffect({}, ['flux'], 'charts/gitops.yaml').settings).toEqual({ flux: {} });
    const { errors } = gitopsInEffect({}, ['argocd'], 'charts/gitops.yaml');
    expect(errors.map(formatError)).toEqual([
      expect.stringContaining('charts/gitops.yaml argocd.repoURL: expected the Git repository Argo CD reads'),
    ]);
  });
});
