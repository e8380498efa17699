import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoTempDir, tempDir } from '../support/tmp.js';

/**
 * A cdk8s app set up as the README shows must not share its output with `specforge render` (dist/): `cdk8s synth`
 * deletes its output directory before each synth.
 */

const ROOT = resolve(import.meta.dirname, '../..');

/** The README's cdk8s.yaml: the YAML block of the "Use the constructs" section that starts by naming the file. */
function readmeCdk8sYaml(): Record<string, unknown> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use the constructs in your cdk8s app'));
  const block = /```yaml\n(# cdk8s\.yaml[^\n]*\n(?:[^`]*\n)?)```/.exec(section)?.[1];
  expect(block, 'the README shows a cdk8s.yaml').toBeDefined();
  return parse(block ?? '') as Record<string, unknown>;
}

describe("the README's cdk8s app", () => {
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

describe("the README's SpecforgeApp example", () => {
  it('synthesises the chart it shows', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```ts\n((?:(?!```)[\s\S])*new SpecforgeApp\(\)[\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the README shows a SpecforgeApp').toBeDefined();
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
