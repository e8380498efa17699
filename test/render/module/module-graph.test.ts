import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedFiles, relativeSpecifiers } from '../../../src/render/module/module-graph.js';
import { tempDir, writeFiles } from '../../support/tmp.js';

describe('the local modules of a chart module', () => {
  it('are named by its relative specifiers, in every form of import, and no package', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b';",
      "export * from './c.mjs';",
      "import './side-effect.js';",
      "const d = await import('./d.js');",
      "const e = require('../e.cjs');",
      "import { Chart } from 'cdk8s';",
      "import x from 'specforge/testing';",
      "import y from '/abs/path.js';",
    ].join('\n');
    expect(relativeSpecifiers(text).sort()).toEqual([
      '../b',
      '../e.cjs',
      './a.js',
      './c.mjs',
      './d.js',
      './side-effect.js',
    ]);
  });

  it('are followed through the repository as tsx resolves them, not into node_modules nor out of it', () => {
    const root = tempDir('module-graph-');
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    writeFiles(root, {
      'outside.ts': 'export const o = 1;\n',
      'repo/charts/web/chart.ts': [
        "import { v } from './values.js';",
        "import { n } from '../../lib/names';",
        "import { p } from '../../node_modules/pkg/index.js';",
        "import { o } from '../../../outside.js';",
        "import { Chart } from 'cdk8s';",
        'export default (c: Chart) => void [v, n, p, o, c];',
      ].join('\n'),
      'repo/charts/web/values.ts': "export const v = 'v';\n",
      'repo/lib/names/index.ts': "export { d as n } from '../deep.js';\n",
      'repo/lib/deep.ts':
        "import './names/index.js';\nimport data from './data.json';\nexport const d = data;\n",
      'repo/lib/data.json': '{"a": 1}\n',
      'repo/node_modules/pkg/index.js': 'export const p = 1;\n',
    });
    const files = importedFiles(join(root, 'repo/charts/web/chart.ts'), join(root, 'repo/charts'));
    expect(files.map((f) => f.path)).toEqual([
      '../lib/data.json',
      '../lib/deep.ts',
      '../lib/names/index.ts',
      'web/values.ts',
    ]);
    expect(Buffer.from(files[3]!.bytes).toString()).toBe("export const v = 'v';\n");
  });

  it('stay inside the charts directory where no repository is above it', () => {
    const root = tempDir('module-graph-');
    writeFiles(root, {
      'lib.mjs': 'export const l = 1;\n',
      'charts/web/chart.mjs': "import { l } from '../../lib.mjs';\nimport { m } from './m.mjs';\n",
      'charts/web/m.mjs': 'export const m = 1;\n',
    });
    const files = importedFiles(join(root, 'charts/web/chart.mjs'), join(root, 'charts'));
    expect(files.map((f) => f.path)).toEqual(['web/m.mjs']);
  });
});
