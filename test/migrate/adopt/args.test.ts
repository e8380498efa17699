import { describe, expect, it } from 'vitest';
import { parseAdoptArgs } from '../../../src/migrate/adopt/args.js';

const base = ['plan', '--chart', 'charts/shop', '--field-manager', 'kustomize-controller'];

describe('parseAdoptArgs', () => {
  it('reads the mode, the chart, the field manager, the operator and its lease', () => {
    expect(
      parseAdoptArgs([
        ...base,
        '--operator',
        'opdemo/opdemo',
        '--operator-lease',
        'opdemo/lock',
        '--context',
        'c',
      ]),
    ).toEqual({
      mode: 'plan',
      chart: 'charts/shop',
      fieldManager: 'kustomize-controller',
      operator: {
        deployment: { namespace: 'opdemo', name: 'opdemo' },
        lease: { namespace: 'opdemo', name: 'lock' },
      },
      operatorGone: false,
      operatorManagers: [],
      context: 'c',
    });
  });

  it('takes --operator-gone in place of the operator', () => {
    expect(parseAdoptArgs([...base, '--operator-gone'])).toMatchObject({ operatorGone: true, operator: {} });
  });

  it.each([
    [['--kubeconfig', ''], '--kubeconfig "" is empty'],
    [['--context', ''], '--context "" is empty'],
  ])(
    'refuses an empty %j as import does: a shell variable unset must not pass for the default',
    (flags, message) => {
      expect(() => parseAdoptArgs([...base, '--operator-gone', ...flags])).toThrow(message);
    },
  );
});
