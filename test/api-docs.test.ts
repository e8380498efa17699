import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readTree } from '../src/output/dist-writer.js';
import { tempDir } from './support/tmp.js';

/**
 * The API reference holds: every export of the package's entry points (`specforge`, `specforge/testing`) has a doc
 * comment, every prop of every props interface is documented and every optional one says its `@default`, and
 * docs/api/ is what TypeDoc generates from the sources today (`npm run docs:api`).
 */

const ENTRY_POINTS = ['src/index.ts', 'src/testing.ts'];
const program = ts.createProgram(ENTRY_POINTS, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  resolveJsonModule: true,
  strict: true,
});
const checker = program.getTypeChecker();

/** Every exported symbol of the entry points, aliases resolved, with the name it is exported as. */
function exported(): { name: string; symbol: ts.Symbol }[] {
  return ENTRY_POINTS.flatMap((file) => {
    const source = program.getSourceFile(file);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`cannot read ${file}`);
    return checker.getExportsOfModule(moduleSymbol).map((s) => ({
      name: `${file}:${s.getName()}`,
      symbol: s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s,
    }));
  });
}

const documented = (s: ts.Symbol): boolean =>
  ts.displayPartsToString(s.getDocumentationComment(checker)).trim() !== '';
const isProps = (name: string): boolean => /(Props|Settings)$/.test(name);

describe('API reference', () => {
  it('documents every export of specforge and specforge/testing', () => {
    const all = exported();
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((e) => !documented(e.symbol)).map((e) => e.name)).toEqual([]);
  });

  it('documents every prop of every props interface, with @default on each optional one', () => {
    const problems: string[] = [];
    const props = exported().filter(
      (e) => isProps(e.symbol.getName()) && e.symbol.flags & ts.SymbolFlags.Interface,
    );
    expect(props.map((e) => e.symbol.getName())).toEqual(
      expect.arrayContaining([
        'AppServiceProps',
        'MyappProps',
        'PodrouteProps',
        'NodePoolProps',
        'CommonProps',
      ]),
    );
    for (const { symbol } of props) {
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      for (const prop of checker.getPropertiesOfType(type)) {
        const where = `${symbol.getName()}.${prop.getName()}`;
        if (!documented(prop)) problems.push(`${where}: no doc comment`);
        const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
        const hasDefault = prop.getJsDocTags(checker).some((t) => t.name === 'default');
        if (optional && !hasDefault) problems.push(`${where}: optional without @default`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('is what TypeDoc generates from the sources (docs/api/ is not stale)', () => {
    const out = tempDir();
    const r = spawnSync('npx', ['typedoc', '--out', out], { encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(readTree(out)).toEqual(readTree(join('docs', 'api')));
  });
});
