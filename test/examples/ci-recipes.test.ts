import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../support/tmp.js';
import { githubJobs, gitlabJobs, runGithubPullRequest, runGitlabMergeRequest } from './ci-runner.js';

/**
 * The CI recipes of examples/ci/ run the way the CI runs them (test/examples/ci-runner.ts), in a user's GitOps
 * repository made here: charts/, a rendered dist/, specforge installed in node_modules (this checkout, its
 * bin/specforge.js, built into lib/), and a pull request on top of `main`. Every `specforge` call is the real
 * command line with its real exit codes. The only thing faked is the network call that posts the comment (`gh`,
 * `curl`): a stub records what it would post. Not run, but stood for by that repository: the `uses:` steps (it is
 * the checkout, with history; Node.js is the one running this test) and `npm ci` (specforge is linked in its
 * node_modules as an install leaves it). Needs lib/ built (`npx tsc -p tsconfig.build.json`; `npm test` does).
 */

const ROOT = resolve(import.meta.dirname, '../..');
/** The how-to of the recipes, and the review how-to, which shows the comment's command inline. */
const CI_DOC = readFileSync(join(ROOT, 'docs/how-to/ci.md'), 'utf8');
const REVIEW_DOC = readFileSync(join(ROOT, 'docs/how-to/review.md'), 'utf8');
const GITHUB = readFileSync(join(ROOT, 'examples/ci/github-actions.yml'), 'utf8');
const GITLAB = readFileSync(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8');
const TIMEOUT = 120_000;

const WEB = `apiVersion: apps.specforge.dev/v1alpha1
kind: AppService
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  image: nginx:alpine
  ports:
    - name: http
      port: 80
      targetPort: 8080
`;

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
};

/** A user's GitOps repository: specforge installed, charts rendered into dist/, committed on `main`. */
function gitopsRepository(): { dir: string; git: (...args: string[]) => string; specforge: Specforge } {
  const dir = writeFiles(tempDir('specforge-ci-repo-'), {
    'package.json': JSON.stringify({ private: true, devDependencies: { specforge: '^0.1.0' } }),
    '.gitignore': 'node_modules/\n',
    'README.md': '# cluster config\n',
    'charts/shop/web.yaml': WEB,
  });
  expect(existsSync(join(ROOT, 'lib/cli.js')), 'lib/ is built (npx tsc -p tsconfig.build.json)').toBe(true);
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules/specforge'));
  symlinkSync('../specforge/bin/specforge.js', join(dir, 'node_modules/.bin/specforge'));
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8' }).trim();
  const specforge: Specforge = (...args) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/specforge.js'), ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
  };
  expect(specforge('render').code).toBe(0);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'charts and dist');
  return { dir, git, specforge };
}

type Specforge = (...args: string[]) => { code: number; out: string; err: string };

/** A pull request on top of `main`: `change` edits the checkout, then everything is committed. */
function pullRequest(change: (dir: string, specforge: Specforge) => void) {
  const repo = gitopsRepository();
  const base = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', 'change');
  change(repo.dir, repo.specforge);
  repo.git('add', '-A');
  repo.git('commit', '-q', '--allow-empty', '-m', 'the change');
  return { ...repo, base };
}

const editWeb = (dir: string, from: string, to: string): void =>
  writeFileSync(join(dir, 'charts/shop/web.yaml'), WEB.replace(from, to));

/** The GitHub workflow on a pull_request event for the PR checked out in `dir`. */
const runGithub = (dir: string, baseSha: string) => runGithubPullRequest(GITHUB, dir, baseSha);

/** The GitLab jobs in a merge request pipeline for the MR checked out in `dir`. */
const runGitlab = (dir: string, baseSha: string) => runGitlabMergeRequest(GITLAB, dir, baseSha);

const GITHUB_PASSES = {
  'check/specforge check': 0,
  'comment/specforge diff': 0,
  'comment/Post the comment': 0,
};
const GITLAB_PASSES = { 'specforge-check/specforge-check': 0, 'specforge-diff/specforge-diff': 0 };

describe('the CI recipes of examples/ci/', () => {
  it('are shell steps the test can run: known actions, the install line, jobs on merge requests', () => {
    expect(
      githubJobs(GITHUB, {
        'github.event.pull_request.base.sha': 'x',
        'github.event.pull_request.number': '1',
        'github.token': 't',
      }).map((j) => j.name),
    ).toEqual(['check', 'comment']);
    const gitlab = gitlabJobs(GITLAB);
    expect(gitlab.map((j) => [j.name, j.needs])).toEqual([
      ['specforge-check', []],
      ['specforge-diff', ['specforge-check']],
    ]);
    expect(GITLAB).toMatch(/rules:\n\s+- if: \$CI_PIPELINE_SOURCE == "merge_request_event"/);
  });

  it(
    'on a pull request that changes no chart: check passes, diff exits 0, the comment says no object differs',
    { timeout: TIMEOUT },
    () => {
      const pr = pullRequest((dir) => writeFileSync(join(dir, 'README.md'), '# cluster config, reworded\n'));
      const gh = runGithub(pr.dir, pr.base);
      expect(gh.codes).toEqual(GITHUB_PASSES);
      expect(gh.steps[0]?.out).toMatch(/dist matches the charts/);
      expect(gh.posts).toEqual([
        {
          command: 'gh',
          args: [
            'pr',
            'comment',
            '7',
            '--repo',
            'example/cluster-config',
            '--edit-last',
            '--create-if-none',
            '--body-file',
            'comment.md',
          ],
          body: expect.stringMatching(/^### specforge diff: no object differs\n/),
        },
      ]);
      expect(gh.summary).toBe(gh.posts[0]?.body);

      const gl = runGitlab(pr.dir, pr.base);
      expect(gl.codes).toEqual(GITLAB_PASSES);
      expect(gl.posts).toHaveLength(1);
      expect(gl.posts[0]?.body).toMatch(/^### specforge diff: no object differs\n/);
      expect(gl.posts[0]?.args).toContain(
        'https://gitlab.example.com/api/v4/projects/42/merge_requests/7/notes',
      );
      expect(gl.posts[0]?.args).toContain('PRIVATE-TOKEN: project-access-token');
    },
  );

  it(
    'on a spec change with dist/ re-rendered: check passes, diff exit 1 is a report, the comment holds it',
    { timeout: TIMEOUT },
    () => {
      const pr = pullRequest((dir, specforge) => {
        editWeb(dir, 'replicas: 2', 'replicas: 3');
        expect(specforge('render').code).toBe(0);
      });
      // What the diff step runs exits 1 here: objects differ.
      expect(pr.specforge('diff', '--against', pr.base, '--format', 'markdown').code).toBe(1);

      const gh = runGithub(pr.dir, pr.base);
      expect(gh.codes).toEqual(GITHUB_PASSES);
      const comment = gh.posts[0]?.body ?? '';
      expect(gh.posts).toHaveLength(1);
      expect(comment).toMatch(
        /^### specforge diff: 1 object differs in 1 chart \(0 added, 0 removed, 1 changed\)\n/,
      );
      expect(comment).toContain(
        '| shop | Deployment shop/web | changed (1 field) | replicas changed: scales |',
      );
      expect(comment).toContain('| `spec.replicas` | `2` | `3` |');

      const gl = runGitlab(pr.dir, pr.base);
      expect(gl.codes).toEqual(GITLAB_PASSES);
      expect(gl.posts.map((p) => p.body)).toEqual([comment]);
    },
  );

  it(
    'on a spec change without a re-render: check fails the job with its message, nothing is posted',
    { timeout: TIMEOUT },
    () => {
      const pr = pullRequest((dir) => editWeb(dir, 'replicas: 2', 'replicas: 3'));
      const stale =
        /specforge: dist is out of date: 2 changed, 0 missing, 0 stale files\. Run `specforge render charts --out dist` and commit the result\./;

      const gh = runGithub(pr.dir, pr.base);
      expect(gh.codes).toEqual({ 'check/specforge check': 1 });
      expect(gh.steps[0]?.err).toMatch(stale);
      expect(gh.steps[0]?.out).toContain('+  replicas: 3');
      expect(gh.posts).toEqual([]);

      const gl = runGitlab(pr.dir, pr.base);
      expect(gl.codes).toEqual({ 'specforge-check/specforge-check': 1 });
      expect(gl.steps[0]?.err).toMatch(stale);
      expect(gl.posts).toEqual([]);
    },
  );

  it(
    'on an invalid spec: check fails the job naming file, line and field, nothing is posted',
    { timeout: TIMEOUT },
    () => {
      const pr = pullRequest((dir) => editWeb(dir, 'port: 80', 'port: 70000'));
      const invalid =
        /charts\/shop\/web\.yaml:11:\d+ \(document 1\) spec\.ports\[0\]\.port: expected an integer from 1 to 65535, found 70000\./;

      const gh = runGithub(pr.dir, pr.base);
      expect(gh.codes).toEqual({ 'check/specforge check': 1 });
      expect(gh.steps[0]?.err).toMatch(invalid);
      expect(gh.posts).toEqual([]);

      const gl = runGitlab(pr.dir, pr.base);
      expect(gl.codes).toEqual({ 'specforge-check/specforge-check': 1 });
      expect(gl.steps[0]?.err).toMatch(invalid);
      expect(gl.posts).toEqual([]);
    },
  );

  it(
    'when diff is called wrongly (a base commit the clone lacks): its exit 2 fails the diff step, nothing is posted',
    { timeout: TIMEOUT },
    () => {
      const pr = pullRequest((dir) => writeFileSync(join(dir, 'README.md'), '# reworded\n'));
      const missing = 'f'.repeat(40); // e.g. a shallow clone: checkout without fetch-depth: 0, GitLab without GIT_DEPTH: 0

      const gh = runGithub(pr.dir, missing);
      expect(gh.codes).toEqual({ 'check/specforge check': 0, 'comment/specforge diff': 2 });
      expect(gh.posts).toEqual([]);

      const gl = runGitlab(pr.dir, missing);
      expect(gl.codes).toEqual({ 'specforge-check/specforge-check': 0, 'specforge-diff/specforge-diff': 2 });
      expect(gl.posts).toEqual([]);
    },
  );

  it(
    'when the base does not render: diff exits 1 with no report, the diff step fails, nothing is posted',
    { timeout: TIMEOUT },
    () => {
      const repo = gitopsRepository();
      editWeb(repo.dir, 'port: 80', 'port: 70000'); // main broken by a commit that skipped the gate
      repo.git('commit', '-q', '-am', 'broken');
      const base = repo.git('rev-parse', 'HEAD');
      repo.git('checkout', '-q', '-b', 'fix');
      editWeb(repo.dir, 'port: 80', 'port: 80');
      repo.git('commit', '-q', '-am', 'the fix');

      const gh = runGithub(repo.dir, base);
      expect(gh.codes).toEqual({ 'check/specforge check': 0, 'comment/specforge diff': 1 });
      expect(gh.steps[1]?.err).toMatch(/found 70000/);
      expect(gh.steps[1]?.err).toMatch(/specforge diff compared nothing: a side did not render/);
      expect(gh.posts).toEqual([]);

      const gl = runGitlab(repo.dir, base);
      expect(gl.codes).toEqual({ 'specforge-check/specforge-check': 0, 'specforge-diff/specforge-diff': 1 });
      expect(gl.posts).toEqual([]);
    },
  );
});

/** The how-to on the recipes (docs/how-to/ci.md). */
function readmeCiSection(): string {
  expect(CI_DOC.startsWith('# CI: the gate and the PR comment'), "the how-to is the recipes' page").toBe(
    true,
  );
  return CI_DOC;
}

describe("the docs' CI lines", () => {
  it('link both recipes, and show the exit-code handling both recipes run', () => {
    const section = readmeCiSection();
    expect(section).toContain('(../../examples/ci/github-actions.yml)');
    expect(section).toContain('(../../examples/ci/gitlab-ci.yml)');
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const lines = block
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(3);
    const context = {
      'github.event.pull_request.base.sha': 'x',
      'github.event.pull_request.number': '1',
      'github.token': 't',
    };
    const diffSteps = [
      { script: githubJobs(GITHUB, context)[1]?.steps[0]?.script ?? '', base: '$BASE_SHA' },
      { script: gitlabJobs(GITLAB)[1]?.steps[0]?.script ?? '', base: '$CI_MERGE_REQUEST_DIFF_BASE_SHA' },
    ];
    for (const { script, base } of diffSteps) {
      const recipe = script.split('\n').map((l) => l.trim());
      for (const line of lines) expect(recipe, line).toContain(line.replace('$BASE_SHA', base));
    }
  });

  it(
    'that write comment.md survive bash -e when objects differ, and fail on a usage error',
    { timeout: TIMEOUT },
    () => {
      const flat = `${CI_DOC}\n${REVIEW_DOC}`.replace(/\n/g, ' ');
      const inline = [...flat.matchAll(/`(npx specforge diff [^`]*> comment\.md[^`]*)`/g)].map(
        (m) => m[1] ?? '',
      );
      const block = /```sh\n([\s\S]*?)```/.exec(readmeCiSection())?.[1] ?? '';
      const commands = [...inline, block];
      expect(inline.length).toBeGreaterThan(0);
      const pr = pullRequest((dir, specforge) => {
        editWeb(dir, 'replicas: 2', 'replicas: 3');
        expect(specforge('render').code).toBe(0);
      });
      pr.git('update-ref', 'refs/remotes/origin/main', pr.base);
      const bash = (command: string, baseSha: string) => {
        const env = {
          ...process.env,
          PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
          BASE_SHA: baseSha,
        };
        const r = spawnSync('bash', ['-eo', 'pipefail', '-c', command], {
          cwd: pr.dir,
          env,
          encoding: 'utf8',
        });
        return { code: r.status, comment: readFileSync(join(pr.dir, 'comment.md'), 'utf8') };
      };
      for (const command of commands) {
        expect(bash(command, pr.base), command).toEqual({
          code: 0,
          comment: expect.stringMatching(/^### specforge diff: 1 object differs/),
        });
      }
      pr.git('update-ref', '-d', 'refs/remotes/origin/main'); // a clone without the base: diff exits 2
      for (const command of commands) expect(bash(command, 'f'.repeat(40)).code, command).not.toBe(0);
    },
  );
});
