import type { LocatedProblem } from '../rules/problem.js';
import { parseSettingsFile, type SettingsFile } from '../specs/settings-file.js';
import { settingsProblems } from './settings-rules.js';
import type { GitopsTool } from './tools.js';

/** Argo CD Applications, one per chart, in `dist/_argocd/`. */
export interface ArgocdSettings {
  /** The Git repository Argo CD reads. */
  readonly repoURL: string;
  /**
   * Branch, tag or commit.
   * @default 'HEAD'
   */
  readonly targetRevision?: string;
  /**
   * Where the rendered output directory is in the repository.
   * @default 'dist'
   */
  readonly path?: string;
  /**
   * Argo CD project.
   * @default 'default'
   */
  readonly project?: string;
  /**
   * Namespace of the Application objects.
   * @default 'argocd'
   */
  readonly namespace?: string;
  /**
   * Destination cluster API.
   * @default 'https://kubernetes.default.svc'
   */
  readonly server?: string;
  /**
   * Sync with server-side apply.
   * @default true
   */
  readonly serverSideApply?: boolean;
  /**
   * Automated sync with prune and self-heal.
   * @default true
   */
  readonly automated?: boolean;
}

/** Flux Kustomizations, one per chart, in `dist/_flux/`. */
export interface FluxSettings {
  /**
   * The Flux source holding the repository.
   * @default - GitRepository `flux-system`, what `flux bootstrap` creates
   */
  readonly sourceRef?: { readonly kind?: string; readonly name: string; readonly namespace?: string };
  /**
   * Where the rendered output directory is in the source.
   * @default './dist'
   */
  readonly path?: string;
  /**
   * Namespace of the Kustomization objects.
   * @default 'flux-system'
   */
  readonly namespace?: string;
  /**
   * Reconcile interval (a Go duration).
   * @default '10m'
   */
  readonly interval?: string;
  /**
   * Delete objects removed from the output.
   * @default true
   */
  readonly prune?: boolean;
}

/** What `charts/gitops.yaml` holds: a section per tool to generate for. */
export interface GitopsSettings {
  /**
   * Generate an Argo CD Application per chart.
   * @default - none generated
   */
  readonly argocd?: ArgocdSettings;
  /**
   * Generate a Flux Kustomization per chart.
   * @default - none generated
   */
  readonly flux?: FluxSettings;
  /**
   * Charts rendered into dist/ but given no Application or Kustomization (samples, charts for another cluster).
   * Every other chart goes to the one cluster the tools' settings name: no two of them may render one object.
   * @default - every chart is deployed
   */
  readonly exclude?: readonly string[];
}

/** Whether the settings generate anything (a section for a tool). */
export function generatesAny(s: GitopsSettings): boolean {
  return s.argocd !== undefined || s.flux !== undefined;
}

/** `charts/gitops.yaml`: its JSON Schema (schemas/gitops.schema.json) and the rules it cannot say. */
const GITOPS_FILE: SettingsFile<GitopsSettings> = { schema: 'gitops', rules: settingsProblems };

/** Parses and validates `charts/gitops.yaml`. Pure. */
export function parseGitopsSettings(
  text: string,
  file: string,
): { settings: GitopsSettings; errors: LocatedProblem[] } {
  return parseSettingsFile(GITOPS_FILE, text, file);
}

/**
 * The settings in effect: the file's sections, plus a default section for each tool asked for on the command line
 * (`--gitops argocd,flux`). Argo CD has no default repository: asking for it without `argocd.repoURL` in the file
 * is an error naming the file to write.
 */
export function gitopsInEffect(
  settings: GitopsSettings,
  asked: readonly GitopsTool[],
  file: string,
): { settings: GitopsSettings; errors: LocatedProblem[] } {
  const errors: LocatedProblem[] = [];
  let out: GitopsSettings = settings;
  for (const tool of asked) {
    if (out[tool] !== undefined) continue;
    if (tool === 'flux') out = { ...out, flux: {} };
    else
      errors.push({
        file,
        path: 'argocd.repoURL',
        expected: 'the Git repository Argo CD reads, for `--gitops argocd`',
        found: 'no argocd section',
        hint: `Write it in ${file}: \`argocd: {repoURL: https://git.example.com/org/repo.git}\`.`,
      });
  }
  return { settings: out, errors };
}
