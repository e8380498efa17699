import { join } from 'node:path';
import {
  GITOPS_SETTINGS_FILE,
  generatesAny,
  gitopsInEffect,
  parseGitopsSettings,
  type GitopsTool,
} from '../gitops/settings.js';
import { loadCharts } from './load-charts.js';
import { renderCharts, type RenderResult } from './render.js';

/**
 * Reads a charts directory and renders it in memory: every error of loading and rendering together. GitOps objects
 * are generated for the tools `charts/gitops.yaml` has a section for, and for those in `gitops` (`--gitops`).
 */
export async function renderFrom(
  chartsDir: string,
  asked: readonly GitopsTool[] = [],
): Promise<RenderResult> {
  const { inputs, errors, gitops } = await loadCharts(chartsDir);
  const file = gitops?.file ?? join(chartsDir, GITOPS_SETTINGS_FILE);
  const parsed = gitops === undefined ? { settings: {}, errors: [] } : parseGitopsSettings(gitops.text, file);
  const inEffect = gitopsInEffect(parsed.settings, asked, file);
  errors.push(...parsed.errors, ...inEffect.errors);
  const wanted = generatesAny(inEffect.settings);
  const result = await renderCharts(inputs, wanted ? { gitops: { settings: inEffect.settings, file } } : {});
  return errors.length === 0
    ? result
    : { files: new Map(), errors: [...errors, ...result.errors], objectCount: 0 };
}
