import { describe, expect, it } from 'vitest';
import { formatError } from '../../src/rules/problem-format.js';
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

  it('reports a type error and the rules the schema cannot say in one run', () => {
    const { errors } = parseGitopsSettings(
      'argocd:\n  repoURL: https://git.example.com/r.git\n  project: Bad_Project\nflux:\n  prune: "yes"\n',
      'charts/gitops.yaml',
    );
    expect(errors.map((e) => e.path)).toEqual(['flux.prune', 'argocd.project']);
  });

  it('reports a YAML 1.1 ambiguity together with the other errors of the file', () => {
    const { errors } = parseGitopsSettings('flux:\n  prune: off\n  interval: often\n', 'charts/gitops.yaml');
    expect(errors.map((e) => e.path)).toEqual(['flux.prune', 'flux.interval']);
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

  it.each([
    ['argocd:\n  repoURL: https://git.example.com/r.git\n  path: ../other-repo/dist\n', 'argocd.path', 3, 9],
    ['argocd:\n  repoURL: https://git.example.com/r.git\n  path: dist/../../x\n', 'argocd.path', 3, 9],
    ['flux:\n  path: ./../dist\n', 'flux.path', 2, 9],
  ])(
    'refuses a path out of the repository (%j), naming file, line and field',
    (text, field, line, column) => {
      const { errors } = parseGitopsSettings(text, 'charts/gitops.yaml');
      expect(errors.map(formatError)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^charts/gitops\\.yaml:${line}:${column} .*${field.replace('.', '\\.')}: expected a directory inside the repository`,
          ),
        ),
      ]);
    },
  );

  it.each(['Team A', 'UPPER', 'a..b', '-x'])(
    'refuses an Argo CD project no AppProject can be named (%j)',
    (project) => {
      const { errors } = parseGitopsSettings(
        `argocd:\n  repoURL: https://git.example.com/r.git\n  project: ${JSON.stringify(project)}\n`,
        'charts/gitops.yaml',
      );
      expect(errors.map(formatError)).toEqual([
        expect.stringMatching(
          /^charts\/gitops\.yaml:3:12 .*argocd\.project: expected the name of an Argo CD AppProject/,
        ),
      ]);
    },
  );

  it('takes a project named as a DNS subdomain, and a path inside the repository', () => {
    const { errors } = parseGitopsSettings(
      'argocd:\n  repoURL: https://git.example.com/r.git\n  project: team-a.apps\n  path: deploy/dist\n',
      'charts/gitops.yaml',
    );
    expect(errors).toEqual([]);
  });

  it('refuses a destination server that is not a cluster URL', () => {
    const { errors } = parseGitopsSettings(
      'argocd:\n  repoURL: https://git.example.com/r.git\n  server: in-cluster\n',
      'charts/gitops.yaml',
    );
    expect(errors.map(formatError)).toEqual([
      expect.stringMatching(/argocd\.server: expected the URL of the destination cluster API/),
    ]);
  });

  it('refuses a chart excluded twice, naming the second place', () => {
    const { errors } = parseGitopsSettings('flux: {}\nexclude: [web, api, web]\n', 'charts/gitops.yaml');
    expect(errors.map(formatError)).toEqual([
      'charts/gitops.yaml:2:21 (document 1) exclude[2]: expected each chart once, found "web" again (also exclude[0]).',
    ]);
  });

  it('takes a Flux source named as a DNS subdomain (as the API server does), and refuses one it would not', () => {
    expect(
      parseGitopsSettings('flux:\n  sourceRef: { name: repo.main }\n', 'charts/gitops.yaml').errors,
    ).toEqual([]);
    const { errors } = parseGitopsSettings('flux:\n  sourceRef: { name: Repo_Main }\n', 'charts/gitops.yaml');
    expect(errors.map(formatError)).toEqual([
      expect.stringMatching(/flux\.sourceRef\.name: expected the name of a Flux source.*found "Repo_Main"/),
    ]);
  });
});
