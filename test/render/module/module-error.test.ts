import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleLoadFailure, moduleMessage, syntaxErrorsOf } from '../../../src/render/module/module-error.js';
import { run, tempDir, writeFiles } from '../../support/tmp.js';

const spec =
  'apiVersion: quay.io/v1alpha1\nkind: Podroute\nmetadata:\n  name: hello\nspec:\n  image: hello:1\n';

describe('errors of chart modules on the command line', () => {
  it('name a syntax error tsx finds at its place in the module, on one line', async () => {
    const charts = writeFiles(tempDir(), {
      'web/app.yaml': spec,
      'web/chart.ts': 'export default function (): void {\n  const x = ;\n}\n',
    });
    const r = await run(['validate', charts]);
    expect(r.code).toBe(1);
    expect(r.err.split('\n')).toEqual([
      `${join(charts, 'web/chart.ts')}:2:13: expected a chart module that loads, found a syntax error (Unexpected ";").`,
      'specforge: 1 error; nothing written.',
    ]);
  });

  it('print a message of several lines with its lines after the first indented under it', async () => {
    const charts = writeFiles(tempDir(), {
      'web/app.yaml': spec,
      'web/chart.ts':
        'export default function (): void {\n  throw new Error("no image for web\\n\\n  set IMAGE\\nand run again  ");\n}\n',
    });
    const r = await run(['validate', charts]);
    expect(r.code).toBe(1);
    expect(r.err.split('\n')).toEqual([
      `${join(charts, 'web/chart.ts')}:2:9: expected a chart module that builds its chart, found an error while building it: no image for web`,
      '    set IMAGE',
      '  and run again.',
      'specforge: 1 error; nothing written.',
    ]);
  });
  it('print the same bytes on every run for a module that imports a package not there: no loader marks or stack', async () => {
    const charts = writeFiles(tempDir(), {
      'web/app.yaml': spec,
      'web/chart.ts': "import 'no-such-package-anywhere';\nexport default function (): void {}\n",
    });
    const first = await run(['validate', charts]);
    const second = await run(['validate', charts]);
    expect(first.code).toBe(1);
    expect(first.err).toContain("Cannot find module 'no-such-package-anywhere'");
    expect(first.err).not.toMatch(/namespace=|Require stack|node_modules/);
    expect(second.err).toBe(first.err);
  });
});

describe('syntaxErrorsOf', () => {
  it("reads esbuild's errors with their places, columns 1-based", () => {
    const message =
      'Transform failed with 2 errors:\n/c/web/chart.ts:2:12: ERROR: Unexpected ";"\n/c/web/chart.ts:5:0: ERROR: Expected "}"';
    expect(syntaxErrorsOf(message)).toEqual([
      { file: '/c/web/chart.ts', line: 2, column: 13, text: 'Unexpected ";"' },
      { file: '/c/web/chart.ts', line: 5, column: 1, text: 'Expected "}"' },
    ]);
    expect(syntaxErrorsOf('Unexpected token ;')).toEqual([]);
  });
});

describe('moduleLoadFailure', () => {
  it('names the other file a syntax error is in, and how many more there are', () => {
    const e = new Error(
      'Transform failed with 2 errors:\n/c/lib.ts:1:4: ERROR: Unexpected "="\n/c/lib.ts:3:0: ERROR: x',
    );
    expect(moduleLoadFailure('/c/web/chart.ts', e)).toBe(
      'a syntax error (Unexpected "=" in /c/lib.ts:1:5, and 1 more)',
    );
  });

  it('says any other error with its message', () => {
    expect(moduleLoadFailure('/c/web/chart.ts', new TypeError('x is not a function'))).toBe(
      'an error: x is not a function',
    );
  });
});

describe('moduleMessage', () => {
  it('keeps a one-line message as it is', () => {
    expect(moduleMessage(new Error('boom'))).toBe('boom');
    expect(moduleMessage('thrown text')).toBe('thrown text');
  });
});
