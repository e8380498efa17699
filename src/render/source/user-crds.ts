import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { Manifest } from '../../rules/manifest.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { isCrd } from '../../rules/crd/registry.js';

/** The directory, beside the charts directory, whose CRDs check the render's custom resources. */
export const USER_CRDS_DIR = 'crds';

/**
 * The CRDs a user keeps in the repository: the `*.yaml`, `*.yml` and `*.json` files of the `crds/` directory beside
 * the charts directory (`crds/` next to `charts/`: not inside it, where every directory is a chart), sorted, each
 * document a CustomResourceDefinition (apiextensions.k8s.io/v1). None when the directory does not exist. Custom
 * resources of the render are checked against them as against the CRDs the render contains
 * (src/rules/crd/render-gate.ts). The I/O edge: a file that is not such a CRD is an error naming it.
 */
/** The yaml package, loaded only when a `crds/` directory is there: a render without one never loads it. */
function yamlParser(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}

export function readUserCrds(chartsDir: string): { crds: Manifest[]; errors: LocatedProblem[] } {
  const dir = join(dirname(resolve(chartsDir)), USER_CRDS_DIR);
  const shown = join(dirname(chartsDir), USER_CRDS_DIR);
  const crds: Manifest[] = [];
  const errors: LocatedProblem[] = [];
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { crds, errors };
  for (const name of readdirSync(dir).sort()) {
    if (!/\.(ya?ml|json)$/.test(name) || !statSync(join(dir, name)).isFile()) continue;
    const file = join(shown, name);
    yamlParser()
      .parseAllDocuments(readFileSync(join(dir, name), 'utf8'))
      .forEach((doc, i) => {
        const at = { file, document: i + 1 };
        if (doc.errors.length > 0) {
          errors.push({ ...at, path: '', expected: 'YAML', found: doc.errors[0]!.message.split('\n')[0]! });
          return;
        }
        const o: unknown = doc.toJS();
        if (o === null || o === undefined) return;
        if (typeof o === 'object' && isCrd(o as Manifest)) crds.push(o as Manifest);
        else
          errors.push({
            ...at,
            path: 'kind',
            expected: `a CustomResourceDefinition (apiextensions.k8s.io/v1): ${USER_CRDS_DIR}/ holds only CRDs`,
            found: typeof o === 'object' ? JSON.stringify((o as Manifest).kind ?? null) : typeof o,
          });
      });
  }
  return { crds, errors };
}
