import { describe, expect, it } from 'vitest';
import { run } from '../../support/tmp.js';

/** No API server listens there: a run that got as far as connecting would fail with exit 1, not 2. */
const NOWHERE = ['--kubeconfig', '/nonexistent/kubeconfig', '--operator-gone'];

describe('specforge adopt refuses a field manager it cannot use, before any API call', () => {
  it.each([
    [[''], '--field-manager: expected a field manager name, found an empty one'],
    [['  '], 'found only whitespace'],
    [['x'.repeat(129)], 'expected at most 128 bytes'],
    [['kustomize\u0007controller'], 'found U+0007'],
    [['opdemo'], "not an old operator's"],
    [['manager'], "not an old operator's"],
    [['my-operator', '--operator-manager', 'my-operator'], 'found "my-operator"'],
    [['kustomize-controller', '--operator-manager', ''], '--operator-manager: expected a field manager name'],
  ])('--field-manager %j: usage error (exit 2) with a sentence', async ([manager, ...rest], message) => {
    for (const mode of ['plan', 'apply']) {
      const r = await run([
        'adopt',
        mode,
        '--chart',
        'charts/none',
        '--field-manager',
        manager!,
        ...rest!,
        ...NOWHERE,
      ]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});
