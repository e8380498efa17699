/**
 * Which plain scalars kubectl reads differently from YAML 1.2 is asked of kubectl itself, not of the YAML specs:
 * each sample goes through `kubectl create --dry-run=client -o json` (sigs.k8s.io/yaml, as `kubectl apply -f`
 * reads files) into a schemaless custom resource, and through specforge's reader (js-yaml, YAML 1.2). specforge
 * must flag exactly the samples whose readings differ (src/specs/yaml-read.ts), so it never keeps a meaning
 * kubectl would not, and never refuses a value both read alike. The samples and kubectl's readings are one table
 * (test/support/yaml-readings.ts), which test/specs/yaml-read.test.ts runs against the emulation without a cluster.
 */
import { load } from 'js-yaml';
import { beforeAll, expect, it } from 'vitest';
import { readYamlDocuments, yaml11Reading } from '../../src/specs/yaml-read.js';
import { YAML_READINGS } from '../support/yaml-readings.js';
import { clusterDescribe } from './helpers.js';
import { kubectl } from './kubectl.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: probes.yaml.specforge.dev }
spec:
  group: yaml.specforge.dev
  scope: Namespaced
  names: { plural: probes, singular: probe, kind: Probe }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`;

clusterDescribe('YAML readings: specforge against kubectl', () => {
  beforeAll(() => {
    kubectl(['apply', '--server-side', '-f', '-'], [0], CRD);
    kubectl(['wait', '--for=condition=Established', 'crd/probes.yaml.specforge.dev', '--timeout=30s']);
  });

  it.each(YAML_READINGS)(
    'reads $raw as the table says ($kubectl), and specforge flags it exactly when that differs from YAML 1.2',
    ({ raw, kubectl: expected }) => {
      const doc = `apiVersion: yaml.specforge.dev/v1\nkind: Probe\nmetadata: { name: p }\nv: ${raw}\n`;
      const byKubectl = JSON.parse(
        kubectl(['create', '--dry-run=client', '-o', 'json', '-f', '-'], [0], doc),
      ).v;
      expect(JSON.stringify(byKubectl)).toBe(JSON.stringify(expected));
      const by12 = (load(`v: ${raw}`) as { v: unknown }).v;
      const differs = JSON.stringify(byKubectl) !== JSON.stringify(by12);
      expect(
        yaml11Reading(raw) !== undefined,
        `kubectl ${JSON.stringify(byKubectl)}, YAML 1.2 ${JSON.stringify(by12)}`,
      ).toBe(differs);
    },
  );

  it.each([
    ['<<: { a: 1 }', true],
    ['~: x', true],
    ['null: x', true],
    ['on: x', true],
    ['012: x', true],
    ['"<<": x', false],
    ['"~": x', false],
    ['0o12: x', false],
    ['plain: x', false],
  ])('flags the key of %s exactly when kubectl reads it differently', (entry, flagged) => {
    const doc = `apiVersion: yaml.specforge.dev/v1\nkind: Probe\nmetadata: { name: p }\nv: { ${entry} }\n`;
    const r = kubectl(['create', '--dry-run=client', '-o', 'json', '-f', '-'], [0, 1], doc);
    const byKubectl = r === '' ? '(refused)' : JSON.stringify(JSON.parse(r).v);
    const by12 = JSON.stringify((load(`v: { ${entry} }`) as { v: unknown }).v);
    expect(byKubectl !== by12, `kubectl ${byKubectl}, YAML 1.2 ${by12}`).toBe(flagged);
    const problems = readYamlDocuments(`v: { ${entry} }`, 'x.yaml').problems;
    expect(problems.length > 0).toBe(flagged);
  });
});
