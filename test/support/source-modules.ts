/**
 * The modules of src/ read as text by the architecture test (test/architecture.test.ts) with the TypeScript parser,
 * no type information: which types a module exports, and the circles of its relative imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** The `.ts` files under `dir`, sorted. */
export function modulesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The exported names of types (interfaces, type aliases, classes, enums) of a module, re-exports included: a type-only
 * re-export by its name, a value re-export by its name when it is capitalised (a class; functions are camelCase).
 */
export function exportedTypes(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const s of source.statements) {
    if (ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause))
      for (const e of s.exportClause.elements)
        if (s.isTypeOnly || e.isTypeOnly || /^[A-Z]/.test(e.name.text)) names.push(e.name.text);
    const declares =
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s) ||
      ts.isClassDeclaration(s) ||
      ts.isEnumDeclaration(s);
    const exported =
      ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (declares && exported === true && s.name !== undefined) names.push(s.name.text);
  }
  return names;
}

/**
 * The modules each module imports by a relative path, of those given (path → text): `import` and `export … from`,
 * type-only ones included, `import('…')` calls and `import('…')` types. `./x.js` names `x.ts`.
 */
export function relativeImports(modules: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of modules) {
    const found = new Set<string>();
    const add = (spec: string): void => {
      const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (spec.startsWith('.') && modules.has(target)) found.add(target);
    };
    const visit = (n: ts.Node): void => {
      if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier !== undefined)
        add((n.moduleSpecifier as ts.StringLiteral).text);
      else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [first] = n.arguments;
        if (first !== undefined && ts.isStringLiteral(first)) add(first.text);
      } else if (
        ts.isImportTypeNode(n) &&
        ts.isLiteralTypeNode(n.argument) &&
        ts.isStringLiteral(n.argument.literal)
      )
        add(n.argument.literal.text);
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
    graph.set(file, [...found]);
  }
  return graph;
}

/**
 * The circles of an import graph: each set of modules that import one another round (a strongly connected
 * component of more than one module, or a module importing itself), its modules sorted. Tarjan's algorithm.
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1 || graph.get(v)?.includes(v) === true) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return circles;
}
