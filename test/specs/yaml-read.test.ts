import { describe, expect, it } from 'vitest';
import { readYamlDocuments, yaml11Reading } from '../../src/specs/yaml-read.js';
import { YAML_READINGS } from '../support/yaml-readings.js';

/** What specforge's reader (YAML 1.2, core schema) reads from `v: <raw>`. */
function read12(raw: string): unknown {
  const { docs } = readYamlDocuments(`v: ${raw}\n`, 'x.yaml');
  return (docs[0] as { v: unknown }).v;
}

/** The value a reading text of {@link yaml11Reading} names (`the boolean true`, `the octal number 10`, …). */
function namedValue(reading: string): unknown {
  const bool = /^the boolean (true|false)$/.exec(reading);
  if (bool !== null) return bool[1] === 'true';
  const number = /^the (?:octal )?number (.+)$/.exec(reading);
  if (number !== null) return Number(number[1]);
  const string = /^the string (".*")$/.exec(reading);
  if (string !== null) return JSON.parse(string[1] ?? '""') as unknown;
  throw new Error(`unknown reading ${reading}`);
}

describe('YAML 1.1 readings, as kubectl reads them (table: test/support/yaml-readings.ts)', () => {
  it.each(YAML_READINGS)(
    'flags $raw exactly when kubectl ($kubectl) reads it differently from YAML 1.2, and names what kubectl reads',
    ({ raw, kubectl }) => {
      const differs = JSON.stringify(kubectl) !== JSON.stringify(read12(raw));
      const reading = yaml11Reading(raw);
      expect(reading !== undefined).toBe(differs);
      if (reading !== undefined) expect(namedValue(reading)).toEqual(kubectl);
      expect(readYamlDocuments(`v: ${raw}\n`, 'x.yaml').problems.length > 0).toBe(differs);
    },
  );

  it('flags a plain key kubectl reads differently, at the key', () => {
    const { problems } = readYamlDocuments('spec:\n  on: x\n', 'x.yaml');
    expect(problems.map((p) => p.path)).toEqual([['spec', 'on']]);
  });

  it('names the path of each flagged scalar through mappings, sequences, flow collections and documents', () => {
    const text = [
      'spec:',
      '  containers:',
      '    - name: web',
      '      ports: [80, {on: 1}]',
      '    - [x, [y, no]]',
      '  012: 012',
      '  after: off',
      '---',
      '- {k: [1, ~]}',
      '- x: 1',
      '  <<: {a: b}',
      '',
    ].join('\n');
    const { problems } = readYamlDocuments(text, 'x.yaml');
    expect(problems.map((p) => [p.document, p.path])).toEqual([
      [1, ['spec', 'containers', 0, 'ports', 1, 'on']],
      [1, ['spec', 'containers', 1, 1, 0]],
      [1, ['spec', 'containers', 1, 1, 1]],
      [1, ['spec', '012']],
      [1, ['spec', '012']],
      [1, ['spec', 'after']],
      [2, [1, '<<']],
    ]);
  });

  it('never flags a quoted scalar', () => {
    expect(
      readYamlDocuments(YAML_READINGS.map((r, i) => `k${i}: "${r.raw}"`).join('\n'), 'x.yaml').problems,
    ).toEqual([]);
  });
});
