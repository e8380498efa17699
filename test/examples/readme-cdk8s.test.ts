import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoTempDir, tempDir } from '../support/tmp.js';

/**
 * A cdk8s app set up as the docs show (docs/how-to/constructs.md) must not share its output with `specforge render` (dist/): `cdk8s synth`
 * deletes its output directory before each synth.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const CONSTRUCTS = 'docs/how-to/constructs.md';

/** The how-to's cdk8s.yaml: the YAML block of docs/how-to/constructs.md that starts by naming the file. */
function readmeCdk8sYaml(): Record<string, unknown> {
  const section = readFileSync(join(ROOT, CONSTRUCTS), 'utf8');
  const block = /```yaml\n(# cdk8s\.yaml[^\n]*\n(?:[^`]*\n)?)```/.exec(section)?.[1];
  expect(block, 'the how-to shows a cdk8s.yaml').toBeDefined();
  return parse(block ?? '') as Record<string, unknown>;
}

describe("the how-to's cdk8s app", () => {
  it('names an output of its own, not dist/ where specforge render writes', () => {
    const config = readmeCdk8sYaml();
    expect(config.app).toBe('npx tsx main.ts');
    expect(typeof config.output).toBe('string');
    expect(resolve('/app', String(config.output))).not.toBe(resolve('/app', 'dist'));
  });

  it('is what examples/cdk8s-app/cdk8s.yaml holds', () => {
    const example = parse(readFileSync(join(ROOT, 'examples/cdk8s-app/cdk8s.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(example).toEqual(readmeCdk8sYaml());
  });
});

describe("the how-to's SpecforgeApp example", () => {
  it('synthesises the chart it shows', async () => {
    const readme = readFileSync(join(ROOT, CONSTRUCTS), 'utf8');
    const block = /```ts\n((?:(?!```)[\s\S])*new SpecforgeApp\(\)[\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the how-to shows a SpecforgeApp').toBeDefined();
    const outdir = tempDir();
    const dir = repoTempDir('readme-specforge-app-');
    const source = (block ?? '')
      .replace("from 'specforge'", `from ${JSON.stringify(join(ROOT, 'src/index.js'))}`)
      .replace('new SpecforgeApp()', `new SpecforgeApp({ outdir: ${JSON.stringify(outdir)} })`);
    writeFileSync(join(dir, 'main.ts'), source);
    await import(pathToFileURL(join(dir, 'main.ts')).href);
    const objects = parseAllDocuments(readFileSync(join(outdir, 'shop.k8s.yaml'), 'utf8')).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string } },
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Deployment/api', 'Service/api']);
  });
});
