import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/rules/problem.js';
import { formatError } from '../../src/rules/problem-format.js';
import { parseSettingsFile, type SettingsFile } from '../../src/specs/settings-file.js';

/** A settings file declared as the chart schema plus one rule of its own: `namespace` may not be `kube-system`. */
interface Team {
  readonly namespace?: string;
  readonly hardening?: string;
}
const TEAM_FILE: SettingsFile<Team> = {
  schema: 'chart',
  rules: (s): Problem[] =>
    s.namespace === 'kube-system'
      ? [{ path: ['namespace'], expected: 'a namespace of the team', found: '"kube-system"' }]
      : [],
};

const parse = (text: string) => parseSettingsFile(TEAM_FILE, text, 'charts/team/chart.yaml');

describe('parseSettingsFile', () => {
  it('returns the settings of a file that passes its schema and its rules', () => {
    expect(parse('namespace: team\nhardening: restricted\n')).toEqual({
      settings: { namespace: 'team', hardening: 'restricted' },
      errors: [],
    });
  });

  it('reads an empty file as no settings', () => {
    expect(parse('')).toEqual({ settings: {}, errors: [] });
  });

  it("reports the schema's problems (an unknown key, a wrong type) and the rules' together, each at file:line:col", () => {
    const { settings, errors } = parse('namespace: kube-system\nhardening: 7\nreplicas: 2\n');
    expect(settings).toEqual({});
    expect(errors.map(formatError)).toEqual([
      'charts/team/chart.yaml:3:11 (document 1) replicas: expected one of the known fields (namespace, labels, ingressClassName, hardening, createNamespace, platform, exposure, gateway, podSecurity), found unknown field "replicas".',
      'charts/team/chart.yaml:2:12 (document 1) hardening: expected one of "none", "restricted", found 7.',
      'charts/team/chart.yaml:1:12 (document 1) namespace: expected a namespace of the team, found "kube-system".',
    ]);
  });

  it('reads YAML as spec files are read: a YAML 1.1 ambiguity is an error beside the others', () => {
    const { errors } = parse('createNamespace: yes\nnamespace: kube-system\n');
    expect(errors.map((e) => [e.path, e.line])).toEqual([
      ['createNamespace', 1],
      ['namespace', 2],
    ]);
  });

  it('refuses a file of two YAML documents', () => {
    const { errors } = parse('namespace: a\n---\nnamespace: b\n');
    expect(errors.map((e) => [e.expected, e.found])).toEqual([['one YAML document', '2 documents']]);
  });
});
