/** kubectl of the test control plane's release, talking to the test kube-apiserver. */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { controlPlane } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');

function kubectlPath(): string {
  const built = join(ROOT, '.cache/control-plane/kubectl');
  if (existsSync(built)) return built;
  const onPath = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).stdout.trim();
  if (onPath === '' && process.env.CI === 'true')
    throw new Error('CI=true and no kubectl: run `npm run control-plane`');
  return onPath;
}

export function kubectl(args: readonly string[], allowExit: readonly number[] = [0], input?: string): string {
  const info = controlPlane();
  if (info === null) throw new Error('no control plane');
  const r = spawnSync(kubectlPath(), ['--kubeconfig', info.kubeconfigPath, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    ...(input === undefined ? {} : { input }),
  });
  if (!allowExit.includes(r.status ?? -1))
    throw new Error(`kubectl ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/**
 * The API groups of the CRDs installed on the shared test plane now (other test files install the seed operators',
 * the Gateway API's and fixture CRDs): what the checks of the built-in API's own answers leave out, since a group
 * such as `gateway.networking.k8s.io` ends in `.k8s.io` without being served by kube-apiserver itself.
 */
export function crdGroups(): Set<string> {
  const out = kubectl(['get', 'customresourcedefinitions', '-o', 'jsonpath={.items[*].spec.group}']);
  return new Set(out.split(/\s+/).filter((g) => g !== ''));
}
