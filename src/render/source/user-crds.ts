import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { Manifest } from '../../rules/manifest.js';
import type { Location, LocatedProblem } from '../../rules/problem.js';
import { isCrd } from '../../rules/crd/registry.js';
import { checkObject } from '../../rules/object-rules.js';

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
    if (!/\.(ya?ml|json)$/.test(name)) continue;
    const file = join(shown, name);
    const text = readCrdFile(join(dir, name), file, errors);
    if (text === undefined) continue;
    yamlParser()
      .parseAllDocuments(text)
      .forEach((doc, i) => {
        const at = { file, document: i + 1 };
        if (doc.errors.length > 0) {
          errors.push({ ...at, path: '', expected: 'YAML', found: doc.errors[0]!.message.split('\n')[0]! });
          return;
        }
        const o = documentValue(doc, at, errors);
        if (o === null || o === undefined) return;
        if (typeof o === 'object' && isCrd(o as Manifest)) {
          // checked as the API server checks a CRD on create: one it refuses is no CRD of the cluster
          const problems = checkObject(o as Manifest);
          if (problems.length === 0) crds.push(o as Manifest);
          for (const p of problems) errors.push({ ...at, ...p });
        } else
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

/**
 * The text of a file of `crds/`, or undefined: when it is no file (a directory named `*.yaml` is skipped), or cannot
 * be read (a link to nothing, no permission: a problem naming it).
 */
function readCrdFile(path: string, file: string, errors: LocatedProblem[]): string | undefined {
  try {
    if (!statSync(path).isFile()) return undefined;
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const dangling = code === 'ENOENT' && isLink(path);
    errors.push({
      file,
      path: '',
      expected: `a CRD file specforge can read (${USER_CRDS_DIR}/ holds the CRDs that check the render's custom resources)`,
      found: dangling
        ? 'a symbolic link to nothing'
        : `a file that cannot be read (${code ?? (e as Error).message})`,
      hint: dangling
        ? 'Remove the link, or point it at the CRD file.'
        : 'Make the file readable, or remove it.',
    });
    return undefined;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Aliases (`*a`) a document may resolve to before it is refused: as many as the yaml package allows by default. */
const MAX_ALIAS_COUNT = 100;

/**
 * A document's value, or undefined with a problem when its aliases expand past {@link MAX_ALIAS_COUNT} (a
 * "billion laughs" document: the yaml package refuses it rather than expanding it).
 */
function documentValue(doc: import('yaml').Document.Parsed, at: Location, errors: LocatedProblem[]): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    errors.push({
      ...at,
      path: '',
      expected: `YAML whose aliases expand to a document of bounded size (at most ${MAX_ALIAS_COUNT} expansions)`,
      found: `more (${(e as Error).message})`,
      hint: 'Write the repeated parts out instead of using anchors and aliases.',
    });
    return undefined;
  }
}
