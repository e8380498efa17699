/**
 * The help texts of the command line: the general one (`specforge --help`), one per render command (`specforge
 * render --help`, `validate --help`, `check --help`), and the short pointer a usage error ends with. The other
 * commands keep their usage beside their flags (src/diff/command.ts, src/migrate/import/args.ts,
 * src/migrate/adopt/args.ts, src/controller/flags.ts). Pure text.
 */
import { KUBERNETES_RELEASE } from '../rules/kubernetes-release.js';

/** What the gate checks every object for, in the render commands' help (src/rules/kubernetes-release.ts). */
const GATE = `Every object is checked as kube-apiserver ${KUBERNETES_RELEASE} checks it on create: its schema, its kind's built-in
validation, a custom resource's CRD and the CRD's CEL rules.`;

export const USAGE = `Usage: specforge <command> [options]

Commands:
  render [CHARTS_DIR] [--out DIR]   render charts (default: charts) into DIR (default: dist), all or nothing
  validate [CHARTS_DIR]             check the specs and their wiring; write nothing
  check [CHARTS_DIR] [--out DIR]    exit 1 and show the difference when DIR is not what render would write
    --gitops argocd,flux            (render, validate, check, diff) also generate an Argo CD Application / a Flux
                                    Kustomization per chart into DIR/_argocd, DIR/_flux (see charts/gitops.yaml)
    -j, --jobs N                    (render, validate, check, diff) worker threads for the charts (default: cores - 1)
    --cache DIR                     (render, validate, check) a cache of built charts (default: none)
  diff [CHARTS_DIR] [--against GIT_REF | --out DIR] [--format text|markdown|json]
                                    review a change object by object, against DIR (default: dist) or a git
                                    revision; exit 1 when objects differ
  import --chart DIR (-n NS ... | -A)  write a spec file per live seed-operator resource, with adoption pins, and
                                    report what adoption does with each object
  adopt plan|apply --chart DIR --field-manager NAME --operator NS/NAME
                                    take a stopped seed operator's objects over for the GitOps tool, with no
                                    restart and no deletion
  controller [flags]                run the NodePool controller

Options:
  -h, --help                        this help; \`specforge <command> --help\` (or \`specforge help <command>\`)
                                    prints the command's own flags, defaults and exit codes
  -V, --version                     print the version of specforge

render, validate and check hold every object to Kubernetes ${KUBERNETES_RELEASE}: each is checked as that release's
kube-apiserver checks it on create (its schema, its kind's built-in validation; a custom resource against its CRD
and the CRD's CEL rules). The release is recorded in DIR/_provenance.txt.

Exit codes: 0 success, 1 invalid input or drift, 2 usage error.`;

const JOBS_FLAG = `  -j, --jobs N       worker threads that build charts of spec files (default: one fewer than the cores
                     Node.js may use, from 1 to 8); the output is the same bytes for any N
  --cache DIR        keep each chart of spec files built and checked in DIR, by the digest of its files and of
                     specforge: an unchanged chart is not built again, with the same output; render and check
                     build nothing when the output holds what the cache recorded for these inputs, and read
                     nothing when git lists a clean checkout of both as a run before found it (default: no
                     cache; DIR apart from CHARTS_DIR and the output; a damaged entry is ignored, with a note)`;

const GITOPS_FLAG = `  --gitops TOOLS     also generate an Argo CD Application (argocd) and/or a Flux Kustomization (flux) per chart,
                     into DIR/_argocd, DIR/_flux; comma-separated or repeated (see charts/gitops.yaml)`;

export const RENDER_USAGE = `Usage: specforge render [CHARTS_DIR] [--out DIR] [--gitops argocd,flux] [--jobs N] [--cache DIR]

Renders every chart under CHARTS_DIR (default: charts) into DIR (default: dist), all or nothing: when any spec
is wrong, every problem is printed (file, line, field, expected, found) and DIR is left exactly as it was. Files
whose bytes would not change are not touched.
${GATE}
  -o, --out DIR      where the manifests go (default: dist); not inside CHARTS_DIR
${GITOPS_FLAG}
${JOBS_FLAG}

Exit codes: 0 rendered (or already up to date), 1 invalid input (DIR unchanged), 2 usage error.`;

export const VALIDATE_USAGE = `Usage: specforge validate [CHARTS_DIR] [--gitops argocd,flux] [--jobs N] [--cache DIR]

Checks every spec under CHARTS_DIR (default: charts) and the wiring between them, as render does, and writes
nothing (but the entries of --cache). Every problem is printed together.
${GATE}
${GITOPS_FLAG}
${JOBS_FLAG}

Exit codes: 0 valid, 1 invalid input, 2 usage error.`;

export const CHECK_USAGE = `Usage: specforge check [CHARTS_DIR] [--out DIR] [--gitops argocd,flux] [--jobs N] [--cache DIR]

The CI drift gate: renders CHARTS_DIR (default: charts) in memory and compares it with DIR (default: dist), file
by file. Writes nothing (but the entries of --cache). When DIR is stale, prints a unified diff of every file
that differs (a Secret's lines are not printed) and the command that brings DIR up to date.
${GATE}
  -o, --out DIR      the rendered manifests to check (default: dist)
${GITOPS_FLAG}
${JOBS_FLAG}

Exit codes: 0 DIR matches the charts, 1 DIR is out of date (or invalid input), 2 usage error.`;

/** The line a usage error ends with: where the usage of `command` (or of specforge) is. */
export function usageHint(command?: string): string {
  return `Run 'specforge ${command === undefined ? '' : `${command} `}--help' for usage.`;
}
