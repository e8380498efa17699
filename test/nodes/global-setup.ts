/**
 * Vitest global setup of the `nodes` project: one cluster with two nodes and an image registry, in a network
 * namespace of its own, shared by every node suite (each test works in namespaces of its own). The host is read
 * before and after: a teardown that leaves anything behind fails the run.
 *
 * - Pieces missing: the suites skip with {@link NODES_HINT}; under `CI=true` this is a failure instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findNodeBinaries, NODES_HINT } from './cluster/binaries.js';
import { changesLeftBy } from './cluster/host-changes.js';
import { readHostState } from './cluster/host-state.js';
import { buildTestImages } from './cluster/images.js';
import { NodeCluster, type NodeClusterInfo } from './cluster/node-cluster.js';
import { REGISTRY_IMAGES, REGISTRY_MIRRORS, WORKLOAD_IMAGES } from './workload.js';

declare module 'vitest' {
  export interface ProvidedContext {
    nodeCluster: NodeClusterInfo | null;
    nodeClusterMissing: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const bins = findNodeBinaries();
  if ('missing' in bins) {
    const why = `missing: ${bins.missing.join(', ')}. ${NODES_HINT}`;
    if (process.env.CI === 'true') throw new Error(`CI=true and the node suites cannot run; ${why}`);
    process.stderr.write(`\n[node suites skipped] ${why}\n\n`);
    project.provide('nodeCluster', null);
    project.provide('nodeClusterMissing', why);
    return undefined;
  }
  const images = mkdtempSync(join(tmpdir(), 'specforge-test-images-'));
  const built = buildTestImages(images, bins, { ...WORKLOAD_IMAGES, ...REGISTRY_IMAGES });
  const cluster = new NodeCluster(bins, {
    // imported into every node: the pause image and the workload's names; pushed: what pods pull
    images: built.filter((i) => !(i.ref in REGISTRY_IMAGES)).map((i) => i.archive),
    registry: { mirrors: REGISTRY_MIRRORS, images: built.filter((i) => i.ref in REGISTRY_IMAGES) },
  });
  const before = readHostState(cluster.name);
  try {
    await cluster.start();
  } catch (err) {
    await cluster.stop();
    rmSync(images, { recursive: true, force: true });
    throw err;
  }
  project.provide('nodeCluster', cluster.info);
  project.provide('nodeClusterMissing', '');
  return async () => {
    await cluster.stop();
    rmSync(images, { recursive: true, force: true });
    const left = changesLeftBy(cluster.name, before, cluster.released);
    if (left.length > 0)
      throw new Error(`the node cluster's teardown left the host changed:\n${left.join('\n')}`);
  };
}
