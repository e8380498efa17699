import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { tempDir } from '../support/tmp.js';

/**
 * The CI recipes of examples/ci/, run as GitHub's and GitLab's runners run them: each shell step is a script file
 * executed by the runner's bash command line, in the checkout, with the step's environment; a step that fails ends
 * its job, and a job whose `needs` failed is skipped.
 *
 * What is not run: the `uses:` steps (actions/checkout and actions/setup-node: the checkout is the caller's git
 * repository, Node.js the one running this test or the one the caller puts first on PATH) and, unless the caller asks
 * for it (`install`, as a fresh runner runs it), the install line `npm ci` (the caller's repository then has specforge
 * in node_modules, as the install leaves it). The network calls that post the
 * comment are `gh` and `curl`: stubs on PATH stand for them and record what would be posted.
 */

/** One shell step of a job. */
export interface CiStep {
  readonly name: string;
  /** The runner's shell command line; the script file is appended. */
  readonly shell: readonly string[];
  readonly script: string;
  readonly env: Readonly<Record<string, string>>;
}

export interface CiJob {
  readonly name: string;
  readonly needs: readonly string[];
  readonly steps: readonly CiStep[];
}

/** What one step did: its real exit code and output. */
export interface StepResult {
  readonly job: string;
  readonly step: string;
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** What a stubbed network command was asked to post. */
export interface Post {
  readonly command: string;
  readonly args: readonly string[];
  readonly body: string;
}

/** The install line both recipes run, which the caller's repository stands for unless it asks for the install. */
const INSTALL = 'npm ci';
/** The actions the GitHub recipe may use; the fixture stands for each. */
const KNOWN_ACTIONS = ['actions/checkout@', 'actions/setup-node@'];
/** GitHub's `shell: bash`, and its default shell on Linux when none is named. */
const GITHUB_SHELLS: Readonly<Record<string, readonly string[]>> = {
  bash: ['bash', '--noprofile', '--norc', '-eo', 'pipefail'],
  default: ['bash', '-e'],
};
/** GitLab Runner's bash: the job's before_script and script lines in one script that starts `set -eo pipefail`. */
const GITLAB_SHELL = ['bash'];
const GITLAB_KEYWORDS = new Set([
  'stages',
  'variables',
  'default',
  'include',
  'workflow',
  'image',
  'services',
]);

type Yaml = Record<string, any>;

/**
 * The jobs of a GitHub Actions workflow, `${{ … }}` replaced from `context` (an expression it does not hold is an
 * error, so the recipe cannot use one the test does not supply).
 */
export function githubJobs(
  text: string,
  context: Readonly<Record<string, string>>,
  install = false,
): CiJob[] {
  const workflow = parse(text) as Yaml;
  const shell = GITHUB_SHELLS[workflow.defaults?.run?.shell ?? 'default'];
  if (shell === undefined) throw new Error(`unknown default shell ${workflow.defaults.run.shell}`);
  const expand = (s: string): string =>
    s.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const value = context[expr];
      if (value === undefined) throw new Error(`the test supplies no value for \${{ ${expr} }}`);
      return value;
    });
  const envOf = (env: Yaml | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, expand(String(v))]));
  return Object.entries(workflow.jobs as Yaml).map(([name, job]: [string, Yaml]) => ({
    name,
    needs: [job.needs ?? []].flat(),
    steps: (job.steps as Yaml[]).flatMap((step, i): CiStep[] => {
      if (step.if !== undefined) throw new Error(`step ${i} of ${name}: the test does not evaluate if:`);
      if (step.uses !== undefined) {
        if (!KNOWN_ACTIONS.some((a) => String(step.uses).startsWith(a)))
          throw new Error(`step ${i} of ${name} uses ${step.uses}, which the test does not stand for`);
        return [];
      }
      if (!install && String(step.run).trim() === INSTALL) return [];
      const env = { ...envOf(workflow.env), ...envOf(job.env), ...envOf(step.env) };
      return [{ name: step.name ?? String(step.run), shell, script: expand(String(step.run)), env }];
    }),
  }));
}

/** The jobs of a GitLab CI file (hidden `.templates` merged in by `extends`), each one step: its whole script. */
export function gitlabJobs(text: string, install = false): CiJob[] {
  const file = parse(text) as Yaml;
  const resolve = (job: Yaml): Yaml => {
    const bases = [job.extends ?? []].flat().map((b: string) => resolve(file[b] as Yaml));
    return Object.assign({}, ...bases, job, {
      variables: Object.assign({}, ...bases.map((b) => b.variables), job.variables),
    }) as Yaml;
  };
  return Object.entries(file)
    .filter(([name]) => !name.startsWith('.') && !GITLAB_KEYWORDS.has(name))
    .map(([name, raw]: [string, Yaml]) => {
      const job = resolve(raw);
      const lines = [...(job.before_script ?? []), ...job.script].map(String);
      const script = ['set -eo pipefail', ...lines.filter((l) => install || l.trim() !== INSTALL)].join('\n');
      const env = Object.fromEntries(
        Object.entries({ ...file.variables, ...job.variables }).map(([k, v]) => [k, String(v)]),
      );
      return { name, needs: [job.needs ?? []].flat(), steps: [{ name, shell: GITLAB_SHELL, script, env }] };
    });
}

/**
 * Runs the jobs in order in `cwd`; returns every step that ran, and what the stubs were asked to post. `path` is the
 * runner's PATH after the stubs: by default the Node running this test first, then this process's PATH; a caller
 * that tests another Node (and `npx` resolving another install) passes its own.
 */
export function runPipeline(
  jobs: readonly CiJob[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  path: string = [dirname(process.execPath), process.env.PATH].join(delimiter),
): { steps: StepResult[]; posts: Post[] } {
  const work = tempDir('specforge-ci-runner-');
  const stubs = postingStubs(join(work, 'bin'));
  const postsFile = join(work, 'posts.jsonl');
  const passed = new Set<string>();
  const steps: StepResult[] = [];
  for (const job of jobs) {
    if (!job.needs.every((n) => passed.has(n))) continue; // skipped: a job it needs failed
    const ok = job.steps.every((step, i) => {
      const file = join(work, `${job.name}-${i}.sh`);
      writeFileSync(file, step.script);
      const r = spawnSync(step.shell[0] ?? 'bash', [...step.shell.slice(1), file], {
        cwd,
        encoding: 'utf8',
        env: {
          PATH: [stubs, path].join(delimiter),
          HOME: process.env.HOME ?? work,
          TMPDIR: process.env.TMPDIR ?? '/tmp',
          CI: 'true',
          CI_RECIPE_POSTS: postsFile,
          ...networkEnv(),
          ...env,
          ...step.env,
        },
      });
      steps.push({ job: job.name, step: step.name, code: r.status ?? -1, out: r.stdout, err: r.stderr });
      return r.status === 0;
    });
    if (ok) passed.add(job.name);
  }
  const posts = existsSync(postsFile)
    ? readFileSync(postsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Post)
    : [];
  return { steps, posts };
}

/**
 * The machine's network settings, which a runner has of its own: proxies and the certificate authorities to trust
 * (an install reaches the npm registry through them).
 */
function networkEnv(): Record<string, string> {
  const names = /^(https?_proxy|no_proxy|all_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir)$/i;
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => names.test(e[0]) && e[1] !== undefined),
  );
}

/** `gh` and `curl` that post nothing: each records its arguments and the file it would have sent. */
function postingStubs(bin: string): string {
  mkdirSync(bin, { recursive: true });
  const stub = `#!/usr/bin/env node
// Stands for the network call that posts the comment: records what would be posted, posts nothing.
const { appendFileSync, readFileSync } = require('node:fs');
const command = require('node:path').basename(process.argv[1]);
const args = process.argv.slice(2);
const file = command === 'gh' ? args[args.indexOf('--body-file') + 1] : (args.find((a) => a.startsWith('body@')) || '').slice(5);
const body = file ? readFileSync(file, 'utf8') : '';
appendFileSync(process.env.CI_RECIPE_POSTS, JSON.stringify({ command, args, body }) + '\\n');
`;
  for (const name of ['gh', 'curl']) {
    writeFileSync(join(bin, name), stub);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** A runner as a new machine has it: the recipes' install line run too, and more environment (an npm cache). */
export interface RunnerOptions {
  /** The runner's PATH after the stubs, as in runPipeline. */
  readonly path?: string;
  readonly install?: boolean;
  readonly env?: Readonly<Record<string, string>>;
}

/** A pipeline's run: each step that ran, what was posted, and the exit code of each step by `job/step`. */
export interface RecipeRun {
  readonly steps: StepResult[];
  readonly posts: Post[];
  readonly codes: Record<string, number>;
}

/** A runner's options from a PATH alone or the whole options. */
const runnerOf = (given: string | RunnerOptions | undefined): RunnerOptions =>
  typeof given === 'string' ? { path: given } : (given ?? {});

function withCodes(r: { steps: StepResult[]; posts: Post[] }): RecipeRun {
  return { ...r, codes: Object.fromEntries(r.steps.map((s) => [`${s.job}/${s.step}`, s.code])) };
}

/**
 * The GitHub workflow `text` on a pull_request event (number 7 of example/cluster-config) for the PR checked out in
 * `dir` on top of `baseSha`; `summary` is what the steps wrote to $GITHUB_STEP_SUMMARY. `path` as in runPipeline.
 */
export function runGithubPullRequest(
  text: string,
  dir: string,
  baseSha: string,
  pathOrRunner?: string | RunnerOptions,
): RecipeRun & { summary: string } {
  const runner = runnerOf(pathOrRunner);
  const summary = join(tempDir('specforge-ci-summary-'), 'summary.md');
  writeFileSync(summary, '');
  const jobs = githubJobs(
    text,
    {
      'github.event.pull_request.base.sha': baseSha,
      'github.event.pull_request.number': '7',
      'github.token': 'token-of-the-run',
    },
    runner.install,
  );
  const env = {
    ...runner.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_REPOSITORY: 'example/cluster-config',
    GITHUB_STEP_SUMMARY: summary,
  };
  return { ...withCodes(runPipeline(jobs, dir, env, runner.path)), summary: readFileSync(summary, 'utf8') };
}

/** The GitLab CI file `text` in a merge request pipeline (!7 of project 42) for the MR checked out in `dir`. */
export function runGitlabMergeRequest(
  text: string,
  dir: string,
  baseSha: string,
  pathOrRunner?: string | RunnerOptions,
): RecipeRun {
  const runner = runnerOf(pathOrRunner);
  const env = {
    ...runner.env,
    GITLAB_CI: 'true',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_DIFF_BASE_SHA: baseSha,
    CI_API_V4_URL: 'https://gitlab.example.com/api/v4',
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    SPECFORGE_NOTE_TOKEN: 'project-access-token',
  };
  return withCodes(runPipeline(gitlabJobs(text, runner.install), dir, env, runner.path));
}
