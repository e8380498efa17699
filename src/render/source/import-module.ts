import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Imports the chart module `file` and answers its default export: JavaScript as Node imports it; TypeScript
 * (`chart.ts`, `chart.mts`) through tsx, the loader the package brings (a dependency), registered for that module
 * only. So a `chart.ts` loads the same way on Node 20 (which cannot strip types) and on Node 24, whatever the
 * user's package.json says of `"type"`, with errors located in its own lines, and TypeScript that type stripping
 * refuses (an `enum`) works too. A `chart.ts` is ES module or CommonJS as Node decides for a `.js` in its place
 * (the nearest package.json's `"type"`); written with `import`/`export` either way.
 */
export async function importChartModule(file: string): Promise<unknown> {
  const path = resolve(file);
  if (!/\.m?ts$/.test(path)) return defaultExport(await import(pathToFileURL(path).href));
  if (path.endsWith('.mts') || packageType(dirname(path)) === 'module') {
    const { tsImport } = await import('tsx/esm/api');
    return defaultExport(await tsImport(pathToFileURL(path).href, import.meta.url));
  }
  // CommonJS through tsx's require hook (its ESM loader would hand Node 20 a data: URL, with no lines in stacks).
  const { require: tsxRequire } = await import('tsx/cjs/api');
  return defaultExport({ default: tsxRequire(path, import.meta.url) });
}

/** The `"type"` of the package `dir` is in (its nearest package.json), as Node reads it for a `.js` file there. */
function packageType(dir: string): unknown {
  for (let d = dir; ; d = dirname(d)) {
    const manifest = join(d, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type;
      } catch {
        return undefined;
      }
    }
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The default export of module namespace `namespace`. A CommonJS module's `export default` (compiled, as tsx
 * compiles it, to `exports.default` beside `__esModule`) arrives one level down.
 */
function defaultExport(namespace: unknown): unknown {
  const value = (namespace as { default?: unknown }).default;
  const inner = value as { __esModule?: unknown; default?: unknown } | null | undefined;
  return typeof value === 'object' && value !== null && inner?.__esModule === true ? inner.default : value;
}
