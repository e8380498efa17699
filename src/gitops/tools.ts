/*
 * The GitOps tools and the settings file's name: what the command line needs of GitOps before anything is read, in
 * a module of its own, without the settings file's reader (and the spec reader it brings).
 */
import { UsageError } from '../util/usage-error.js';

/** The GitOps tools specforge generates objects for. */
export type GitopsTool = 'argocd' | 'flux';

/** Every tool, in output order. */
export const GITOPS_TOOLS: readonly GitopsTool[] = ['argocd', 'flux'];

/** The optional top-level `charts/gitops.yaml` (schemas/gitops.schema.json). */
export const GITOPS_SETTINGS_FILE = 'gitops.yaml';

/** `--gitops argocd,flux` (or repeated): the tools, each once, in output order; anything else is a usage error. */
export function gitopsToolsOption(values: readonly string[]): GitopsTool[] {
  const asked = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  for (const tool of asked)
    if (!(GITOPS_TOOLS as readonly string[]).includes(tool))
      throw new UsageError(`--gitops takes ${GITOPS_TOOLS.join(' or ')}, got ${JSON.stringify(tool)}`);
  return GITOPS_TOOLS.filter((t) => asked.includes(t));
}
