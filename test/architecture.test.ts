/**
 * The arrows between the rooms of src/ (docs/architecture.md) are kept by the linter: these cases show the rule bites
 * on a wrong import and stays quiet on an allowed one, so a change to the lint configuration cannot switch it off
 * unnoticed. Beside them, what lint does not keep: the size of a module, the names a chart goes by in the render, and
 * circles in the import graph.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: a JavaScript module without declarations
import { layerConfig } from '../eslint.layers.js';
import { describe, expect, it } from 'vitest';
import { exportedTypes, importCircles, modulesUnder, relativeImports } from './support/source-modules.js';

// The layer blocks of eslint.config.js alone, with the TypeScript parser but no type information (the planted
// files exist only as text here).
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...layerConfig()],
});

async function rulesHit(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('the import directions between the rooms of src/', () => {
  it('refuse an import from a room above (rules importing specs)', async () => {
    const hits = await rulesHit(
      'src/rules/planted.ts',
      "import type { SpecKind } from '../specs/types.js';\nexport type K = SpecKind;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('refuse migration reaching the cluster through the controller', async () => {
    const hits = await rulesHit(
      'src/migrate/import/planted.ts',
      "import * as decide from '../../controller/decide.js';\nexport const d = decide;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('refuse the render importing migration', async () => {
    const hits = await rulesHit(
      'src/render/planted.ts',
      "import * as plan from '../migrate/adopt/plan.js';\nexport const p = plan;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('refuse a room importing the command line (src/cli.ts)', async () => {
    const hits = await rulesHit(
      'src/diff/planted.ts',
      "import { main } from '../cli.js';\nexport const m = main;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it("refuse a room importing the command line's parts (src/cli/)", async () => {
    const hits = await rulesHit(
      'src/render/planted.ts',
      "import { USAGE } from '../cli/usage.js';\nexport const u = USAGE;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it("refuse the cache importing the command line's version (it is handed the version)", async () => {
    const hits = await rulesHit(
      'src/cache/planted.ts',
      "import { packageVersion } from '../cli/version.js';\nexport const v = packageVersion;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('refuse cdk8s in the controller, which runs without it', async () => {
    const hits = await rulesHit(
      'src/controller/planted.ts',
      "import { App } from 'cdk8s';\nexport const a = App;\n",
    );
    expect(hits).toContain('no-restricted-imports');
  });

  it('refuse cdk8s in output, which holds bytes and disk only', async () => {
    const hits = await rulesHit(
      'src/output/planted.ts',
      "import type { Chart } from 'cdk8s';\nexport type C = Chart;\n",
    );
    expect(hits).toContain('no-restricted-imports');
  });

  it("refuse output importing the construct door's App (src/app/)", async () => {
    const hits = await rulesHit(
      'src/output/planted.ts',
      "import { AppWalk } from '../app/app-walk.js';\nexport const w = AppWalk;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('allow the render using the walk of the App (src/app/)', async () => {
    const hits = await rulesHit(
      'src/render/planted.ts',
      "import { chartJson } from '../app/app-walk.js';\nexport const c = chartJson;\n",
    );
    expect(hits).toEqual([]);
  });

  it('refuse the render importing the cache, which it is handed as a store', async () => {
    const hits = await rulesHit(
      'src/render/planted.ts',
      "import { ChartCache } from '../cache/chart-cache.js';\nexport const c = ChartCache;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('refuse the report of a diff importing its sides, and the comparison importing effects', async () => {
    const report = await rulesHit(
      'src/diff/report/planted.ts',
      "import { loadAgainstDist } from '../sides/sides.js';\nexport const r = loadAgainstDist;\n",
    );
    expect(report).toContain('import-x/no-restricted-paths');
    const comparison = await rulesHit(
      'src/diff/comparison/planted.ts',
      "import { effectsOf } from '../effects/effects.js';\nexport const e = effectsOf;\n",
    );
    expect(comparison).toContain('import-x/no-restricted-paths');
    const schedule = await rulesHit(
      'src/diff/effects/planted.ts',
      "import { runDiff } from '../command.js';\nexport const r = runDiff;\n",
    );
    expect(schedule).toContain('import-x/no-restricted-paths');
  });

  it('allow the report of a diff reading effects and the comparison', async () => {
    const hits = await rulesHit(
      'src/diff/report/planted.ts',
      "import { edgesOf } from '../effects/wiring.js';\nimport { compareRefs } from '../comparison/compare.js';\nexport const e = edgesOf;\nexport const c = compareRefs;\n",
    );
    expect(hits).toEqual([]);
  });

  it("refuse a chart's room importing the render's input edge (render/chart importing render/source)", async () => {
    const hits = await rulesHit(
      'src/render/chart/planted.ts',
      "import { loadCharts } from '../source/load-charts.js';\nexport const l = loadCharts;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it("refuse a chart's room importing the render's schedule (render/chart importing src/render/*.ts)", async () => {
    const hits = await rulesHit(
      'src/render/chart/planted.ts',
      "import { ChartPool } from '../chart-pool.js';\nexport const p = ChartPool;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it("refuse the input edge importing the render's schedule (render/source importing src/render/*.ts)", async () => {
    const hits = await rulesHit(
      'src/render/source/planted.ts',
      "import type { ChartStore } from '../chart-store.js';\nexport type S = ChartStore;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it('refuse the code a chart module runs under importing a chart (render/module importing render/chart)', async () => {
    const hits = await rulesHit(
      'src/render/module/planted.ts',
      "import { prepareChart } from '../chart/prepare.js';\nexport const p = prepareChart;\n",
    );
    expect(hits).toContain('import-x/no-restricted-paths');
  });

  it("allow the input edge its chart's input and a chart its own room (render/source, render/chart)", async () => {
    const source = await rulesHit(
      'src/render/source/planted.ts',
      "import { chartInputOf } from '../chart/chart-input.js';\nexport const c = chartInputOf;\n",
    );
    const chart = await rulesHit(
      'src/render/chart/planted.ts',
      "import { prepareChart } from './prepare.js';\nimport { applyModule } from './apply-module.js';\nexport const p = [prepareChart, applyModule];\n",
    );
    expect([...source, ...chart]).toEqual([]);
  });

  it('allow a room that may import the render its rooms too (the cache reading a charts directory)', async () => {
    const hits = await rulesHit(
      'src/cache/planted.ts',
      "import { loadCharts } from '../render/source/load-charts.js';\nexport const l = loadCharts;\n",
    );
    expect(hits).toEqual([]);
  });

  it('allow an import down the floors (constructs using rules and specs)', async () => {
    const hits = await rulesHit(
      'src/constructs/planted.ts',
      "import { formatPath } from '../rules/field-path.js';\nimport type { SpecKind } from '../specs/types.js';\nexport const f = formatPath;\nexport type K = SpecKind;\n",
    );
    expect(hits).toEqual([]);
  });
});

describe('the modules of src/', () => {
  it('are none over 400 lines (src/imports/, generated, aside)', () => {
    const long = readdirSync('src', { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => join(e.parentPath, e.name))
      .filter((p) => !p.startsWith(join('src', 'imports')))
      .map((p) => `${p}: ${readFileSync(p, 'utf8').split('\n').length - 1} lines`)
      .filter((l) => Number(/: (\d+) lines$/.exec(l)?.[1]) > 400);
    expect(long).toEqual([]);
  });
});

/** The four names one chart goes by from disk to bytes (issue 44): what the rest of the render is told of a chart. */
const CHART_NAMES = ['ChartSource', 'ChartInput', 'CheckedChart', 'EmittedChart'];

/** Names with "Chart" in them that name no chart at a stage but something about charts, each with what it is. */
const ABOUT_CHARTS: Record<string, string> = {
  ChartModule: "the type of a chart module's default export: code, not a chart",
  ChartModuleError: 'the error a chart module threw',
  ChartSettings: "a chart's chart.yaml, parsed",
  ChartStore: 'where a render keeps built charts (the cache, handed to it)',
  ChartStoreOpening: 'how a worker thread opens that store',
  ChartPool: 'the worker threads that build charts',
  ChartReuse: 'the charts kept from the other side of a diff',
};

/** The chart names the render had before issue 44 cut them to four; none may come back under src/. */
const RETIRED = [
  'ChartListing',
  'ListedChart',
  'ListedCharts',
  'LoadedCharts',
  'ChartReading',
  'ChartFile',
  'ChartYamlFile',
  'Prepared',
  'WireChart',
];

describe('the names of a chart in the render', () => {
  it('are four exported from src/render/: any other exported type named for a chart is about charts, and listed', () => {
    const stray = modulesUnder(join('src', 'render'))
      .flatMap((file) => exportedTypes(file).map((name) => `${file}: ${name}`))
      .filter((l) => {
        const name = l.slice(l.lastIndexOf(' ') + 1);
        return name.includes('Chart') && !CHART_NAMES.includes(name) && !(name in ABOUT_CHARTS);
      });
    expect(stray).toEqual([]);
  });

  it('are none of those issue 44 made private or renamed, in any room of src/', () => {
    const back = modulesUnder('src')
      .flatMap((file) => exportedTypes(file).map((name) => `${file}: ${name}`))
      .filter((l) => RETIRED.includes(l.slice(l.lastIndexOf(' ') + 1)));
    expect(back).toEqual([]);
  });

  it('are read from every kind of export: declarations and re-exports, type-only or a class', () => {
    const text =
      "export interface A {}\nexport type B = A;\nexport class C {}\nexport enum D { X }\ninterface Hidden {}\nexport type { E } from './e.js';\nexport { F, f, type G } from './f.js';\nexport function h(): Hidden { return {}; }\n";
    expect(exportedTypes('src/render/planted.ts', text)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
  });
});

describe('the import graph of src/', () => {
  it('has no circle: no module imports itself through others (type imports and import() included)', () => {
    const modules = new Map(modulesUnder('src').map((f) => [resolve(f), readFileSync(f, 'utf8')]));
    const circles = importCircles(relativeImports(modules)).map((c) => c.map((f) => relative('.', f)));
    expect(circles).toEqual([]);
  });

  it('finds a circle closed by a type import, an import() or a re-export, and none in a line', () => {
    const at = (f: string): string => resolve('src', 'planted', f);
    const circle = new Map([
      [at('a.ts'), "import type { B } from './b.js';\nexport type A = B;\n"],
      [at('b.ts'), "export { c } from './sub/c.js';\nexport type B = string;\n"],
      [at('sub/c.ts'), "export const c = (): Promise<unknown> => import('../a.js');\n"],
      [at('d.ts'), "import { c } from './sub/c.js';\nexport const d = c;\n"],
      [at('e.ts'), "export type E = import('./e.js').F;\nexport type F = string;\n"],
    ]);
    expect(importCircles(relativeImports(circle))).toEqual([
      [at('a.ts'), at('b.ts'), at('sub/c.ts')],
      [at('e.ts')],
    ]);
    circle.set(at('sub/c.ts'), 'export const c = 1;\n');
    circle.set(at('e.ts'), 'export type F = string;\n');
    expect(importCircles(relativeImports(circle))).toEqual([]);
  });
});
