import { GITOPS_SETTINGS_FILE } from '../../gitops/tools.js';
import type { LocatedProblem } from '../../rules/problem.js';
import { decodeSpecBytes } from '../../specs/decode.js';
import { isYamlName } from './chart-tree.js';
import { chartInputOf, type YamlText } from '../chart/chart-input.js';
import { specOutsideCharts, type LoadedDir } from './load-charts.js';

/**
 * A charts directory read from files held in memory (a git revision's blobs, for `specforge diff --against`), by
 * the rules {@link loadCharts} reads one on disk: every directory is a chart, its YAML files (recursively, sorted by
 * name at each level) are spec files except `chart.yaml`, dot entries are left out, bytes must be UTF-8 within the
 * size bound, `gitops.yaml` beside the charts holds the GitOps settings. The files must all be regular files (no
 * links) and no chart may have a module: a caller with such a tree writes it out and reads it from disk. Pure.
 * @param chartsDir the name in messages (`HEAD~1:charts`): a file is `<chartsDir>/<path>`.
 * @param files path in the charts directory (`web/app.yaml`, `/`-separated) → bytes.
 */
export function loadChartsFromBlobs(chartsDir: string, files: ReadonlyMap<string, Uint8Array>): LoadedDir {
  const top = treeOf(files);
  const errors: LocatedProblem[] = [];
  const inputs: LoadedDir['inputs'] = [];
  let gitops: LoadedDir['gitops'];
  for (const name of sortedNames(top)) {
    const entry = top.get(name);
    const file = `${chartsDir}/${name}`;
    if (entry instanceof Map) inputs.push(chartInputOf(name, file, chartFiles(file, entry, errors), errors));
    else if (entry === undefined || !isYamlName(name)) continue;
    else if (name !== GITOPS_SETTINGS_FILE) errors.push(specOutsideCharts(chartsDir, name));
    else {
      const text = decoded(file, entry, errors);
      if (text !== undefined) gitops = { file, text };
    }
  }
  return { kind: 'read', inputs, errors, ...(gitops === undefined ? {} : { gitops }) };
}

/** A directory of the tree: name → sub-directory or file bytes. */
type Dir = Map<string, Dir | Uint8Array>;

/**
 * The files as nested directories, dot entries (at any depth) left out as the disk walk leaves them out; the
 * directories above a dot entry stay (`web/.gitkeep` keeps the chart `web`, as it exists on disk).
 */
function treeOf(files: ReadonlyMap<string, Uint8Array>): Dir {
  const root: Dir = new Map();
  for (const [path, bytes] of files) {
    const parts = path.split('/');
    let dir: Dir | undefined = root;
    for (const part of parts.slice(0, -1)) {
      if (part === '' || part.startsWith('.')) {
        dir = undefined;
        break;
      }
      dir = subDir(dir, part);
    }
    const name = parts[parts.length - 1] ?? '';
    if (dir !== undefined && name !== '' && !name.startsWith('.')) dir.set(name, bytes);
  }
  return root;
}

/** The sub-directory `name` of `dir`, made when missing. */
function subDir(dir: Dir, name: string): Dir {
  const found = dir.get(name);
  if (found instanceof Map) return found;
  const made: Dir = new Map();
  dir.set(name, made);
  return made;
}

/** The YAML files of a chart directory, depth first, names sorted at each level (as src/render/source/chart-tree.ts). */
function chartFiles(chartDir: string, dir: Dir, errors: LocatedProblem[]): YamlText[] {
  const out: YamlText[] = [];
  const walk = (d: Dir, rel: string): void => {
    for (const name of sortedNames(d)) {
      const entry = d.get(name);
      const relPath = rel === '' ? name : `${rel}/${name}`;
      if (entry instanceof Map) walk(entry, relPath);
      else if (entry !== undefined && isYamlName(name)) {
        const file = `${chartDir}/${relPath}`;
        const text = decoded(file, entry, errors);
        if (text !== undefined) out.push({ file, rel: relPath, text });
      }
    }
  };
  walk(dir, '');
  return out;
}

function decoded(file: string, bytes: Uint8Array, errors: LocatedProblem[]): string | undefined {
  const d = decodeSpecBytes(bytes, file);
  if ('error' in d) {
    errors.push(d.error);
    return undefined;
  }
  return d.text;
}

/** Byte order, as the disk walk sorts (src/render/source/chart-tree.ts `entries`). */
function sortedNames(dir: Dir): string[] {
  return [...dir.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
