/**
 * A suite's own control plane with kube-controller-manager and the seed operators' CRDs (installed before the
 * garbage collector's first discovery, so it watches their resources), an admin client, work directories removed
 * afterwards, and the small reads every migration test needs. Call inside a `controllerManagerDescribe`.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { KubeClient, isStatus } from '../../src/kube/client.js';
import { repoTempDir } from '../support/tmp.js';
import { startPrivateControlPlane, type ControlPlane } from './control-plane.js';
import { ROOT, run, type Run } from './gitops-tools.js';
import { adminConfig } from './kubeconfig.js';
import { installSeedCrds, objectPath, type Json } from './seed-operators.js';

export interface SeedPlane {
  readonly cp: ControlPlane;
  readonly client: KubeClient;
  /** The live object, or undefined when it is gone. */
  get(o: Json): Promise<Json | undefined>;
  /** The specforge CLI against this plane (`--kubeconfig` added); other exit codes than `allow` throw. */
  specforge(args: readonly string[], allow?: readonly number[]): Run;
  /** A fresh directory under .cache (chart modules resolve `specforge` there), removed after the suite. */
  workDir(prefix: string): string;
}

export function seedPlane(): SeedPlane {
  let cp!: ControlPlane;
  let client!: KubeClient;
  const dirs: string[] = [];
  beforeAll(async () => {
    cp = await startPrivateControlPlane({
      controllerManager: true,
      beforeControllerManager: installSeedCrds,
    });
    client = await KubeClient.fromKubeConfig(adminConfig(cp.info));
  }, 180_000);
  afterAll(async () => {
    client?.close();
    await cp?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return {
    get cp() {
      return cp;
    },
    get client() {
      return client;
    },
    async get(o) {
      try {
        return await client.request<Json>('GET', objectPath(o));
      } catch (e) {
        if (isStatus(e, 404)) return undefined;
        throw e;
      }
    },
    specforge(args, allow = [0]) {
      return run(
        join(ROOT, 'node_modules/.bin/node'),
        [join(ROOT, 'bin/specforge.js'), ...args, '--kubeconfig', cp.info.kubeconfigPath],
        { allow },
      );
    },
    workDir(prefix) {
      const d = repoTempDir(prefix);
      dirs.push(d);
      return d;
    },
  };
}
