import { describe, expect, it } from 'vitest';
import { importChartModule } from '../../../src/render/source/import-module.js';
import { tempDir, writeFiles } from '../../support/tmp.js';

/**
 * Chart modules in TypeScript load through tsx whatever the package around them says of `"type"`
 * (src/render/source/import-module.ts); the whole path, on Node 20 and 24 from a packed package, is test/package.
 */

const MODULE = [
  'enum Replicas {',
  '  Two = 2,',
  '}',
  'export default function (): number {',
  '  return Replicas.Two;',
  '}',
  '',
].join('\n');

describe('importChartModule', () => {
  it('gives the default export of a chart.ts in a package without "type": "module" (CommonJS), enum included', async () => {
    const dir = writeFiles(tempDir('import-cjs-'), {
      'package.json': '{ "name": "user", "private": true }\n',
      'charts/web/chart.ts': MODULE,
    });
    const exported = await importChartModule(`${dir}/charts/web/chart.ts`);
    expect(typeof exported).toBe('function');
    expect((exported as () => number)()).toBe(2);
  });

  it('gives the default export of a chart.ts in a package with "type": "module"', async () => {
    const dir = writeFiles(tempDir('import-esm-'), {
      'package.json': '{ "name": "user", "private": true, "type": "module" }\n',
      'charts/web/chart.ts': `${MODULE}export const viaImportMeta = typeof import.meta.url;\n`,
    });
    const exported = await importChartModule(`${dir}/charts/web/chart.ts`);
    expect((exported as () => number)()).toBe(2);
  });

  it('gives the default export of a compiled CommonJS chart.js, not its exports object', async () => {
    const dir = writeFiles(tempDir('import-js-'), {
      'package.json': '{ "name": "user", "private": true }\n',
      'charts/web/chart.js':
        'Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = function () { return 3; };\n',
    });
    const exported = await importChartModule(`${dir}/charts/web/chart.js`);
    expect((exported as () => number)()).toBe(3);
  });
});
