/**
 * Vitest global setup of the `cluster` project: one control plane shared by every cluster test file (each test
 * uses its own names and a label selector of its own, so files run in parallel without interfering).
 *
 * - Binaries missing: the suites skip with {@link BUILD_HINT}; under `CI=true` this is a failure instead.
 */
import type { TestProject } from 'vitest/node';
import { BUILD_HINT, ControlPlane, findBinaries, type ControlPlaneInfo } from './control-plane.js';
import { installCrds } from './crds.js';

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: ControlPlaneInfo | null;
    controlPlaneMissing: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const bins = findBinaries();
  if (bins === undefined) {
    if (process.env.CI === 'true') throw new Error(`CI=true and no test control plane. ${BUILD_HINT}`);
    process.stderr.write(`\n[cluster tests skipped] ${BUILD_HINT}\n\n`);
    project.provide('controlPlane', null);
    project.provide('controlPlaneMissing', BUILD_HINT);
    return undefined;
  }
  const cp = new ControlPlane(bins);
  try {
    await cp.start();
    await installCrds(cp.info);
  } catch (err) {
    await cp.stop();
    throw err;
  }
  project.provide('controlPlane', cp.info);
  project.provide('controlPlaneMissing', '');
  return () => cp.stop();
}
