import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliReference, PAGES, specsReference } from '../../scripts/docs/reference.js';

/** The generated reference pages are what the schemas and --help texts make today (`npm run docs:reference`). */

const ROOT = resolve(import.meta.dirname, '../..');

describe('the generated reference', () => {
  it.each(PAGES.map(([file, make]) => [file, make] as const))(
    "%s is what npm run docs:reference makes from today's sources",
    (file, make) => {
      expect(readFileSync(join(ROOT, file), 'utf8')).toBe(make());
    },
  );

  it("lists every kind's spec fields with their bounds, and every chart setting", () => {
    const specs = specsReference();
    for (const heading of ['## AppService', '## Myapp', '## Podroute', '## NodePool', '## Chart settings'])
      expect(specs).toContain(heading);
    expect(specs).toMatch(/\| `spec\.replicas` \| integer, 1–1000 \|/);
    expect(specs).toMatch(/\| `platform` \| one of `"kubernetes"`, `"openshift"` \|/);
  });

  it("holds every command's help", () => {
    const cli = cliReference();
    for (const command of ['render', 'validate', 'check', 'diff', 'import', 'adopt', 'controller'])
      expect(cli).toContain(`Usage: specforge ${command}`);
  });
});
