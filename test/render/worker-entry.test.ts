import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderContained } from '../../src/render/contained.js';
import { renderWorkerEntry } from '../../src/render/worker-entry.js';
import { repoTempDir, tempDir, writeFiles } from '../support/tmp.js';

/**
 * Chart modules run in a worker thread (src/render/contained.ts): the worker is the one next to the running code,
 * so a test run without a fresh build tests the source, not whatever lib/ holds.
 */

const ROOT = resolve(import.meta.dirname, '../..');

describe('render worker', () => {
  it('runs chart modules with the code under test (the TypeScript source here), not a build of it in lib/', async () => {
    // The module reports the renderer's frames that called it.
    const module =
      "export default () => {\n  const frames = new Error().stack.split('\\n').filter((l) => l.includes('/render/'));\n  throw new Error(frames.join(' | '));\n};\n";
    const charts = writeFiles(repoTempDir('worker-'), {
      'm/chart.mjs': module,
    });
    const { errors } = await renderContained(charts);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.found).toContain(`${ROOT}/src/render/chart/apply-module.ts`);
    expect(errors[0]?.found).not.toContain('/lib/');
  });

  it('starts the built worker beside the built code, with the options of the thread that starts it', () => {
    expect(renderWorkerEntry('file:///app/node_modules/specforge/lib/render/worker-entry.js')).toEqual({
      url: new URL('file:///app/node_modules/specforge/lib/render/render-worker.js'),
    });
  });

  it('starts the TypeScript source of the worker beside the source, through the tsx loader', () => {
    const entry = renderWorkerEntry(pathToFileURL(join(ROOT, 'src/render/worker-entry.ts')).href);
    expect(entry.url.href).toBe(pathToFileURL(join(ROOT, 'src/render/render-worker.ts')).href);
    expect(entry.execArgv?.[0]).toBe('--import');
    expect(entry.execArgv?.[1]).toMatch(/\/tsx\/dist\/loader\.mjs$/);
  });

  it('says how to fix it when the source runs where tsx cannot be found, instead of running stale code', () => {
    const elsewhere = pathToFileURL(join(tempDir(), 'src/render/worker-entry.ts')).href;
    expect(() => renderWorkerEntry(elsewhere)).toThrow(
      /runs from its TypeScript source \(.*\/src\/render\/render-worker\.ts\) only through tsx's loader, which cannot be found from there: install the devDependencies \(npm ci\), or run the built code in lib\/ \(npm run build\)\./,
    );
  });
});
