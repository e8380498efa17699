import { describe, expect, it } from 'vitest';
import { checkCustomResource } from '../../../src/rules/crd/check.js';
import { crdEntry } from '../../../src/rules/crd/registry.js';
import { WIDGET_CRD } from '../../support/widget-crd.js';

const schema = crdEntry(WIDGET_CRD)!.entry.versions.get('v1')!.schema!;
const widget = (spec: object) => ({
  apiVersion: 'gate.specforge.test/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
const paths = (spec: object) =>
  checkCustomResource(widget(spec), schema).map((p) => `${p.path}: ${p.expected}`);

describe('checkCustomResource', () => {
  it('accepts a valid custom resource, defaults applied', () => {
    expect(
      checkCustomResource(widget({ size: 3, port: 'http', ports: [{ name: 'a', port: 1 }] }), schema),
    ).toEqual([]);
  });

  it('names every problem of the object with its field path, expected and found', () => {
    expect(checkCustomResource(widget({ size: '3', mode: 'paused', typo: true }), schema)).toEqual([
      {
        path: 'spec.typo',
        expected: 'a field the CRD schema declares (strict field validation)',
        found: 'an unknown field',
      },
      { path: 'spec.size', expected: 'an integer', found: '"3"' },
      { path: 'spec.mode', expected: 'one of "Active", "Paused"', found: '"paused"' },
    ]);
  });

  it('checks bounds, exclusive bounds, lengths in characters, patterns, formats and int-or-string', () => {
    expect(
      paths({
        size: 101,
        ratio: 0,
        note: 'ééééé!',
        schedule: 'daily',
        created: '2024-13-01T00:00:00Z',
        uid: 'x',
        port: 1.5,
      }),
    ).toEqual([
      'spec.size: at most 100',
      'spec.ratio: more than 0',
      'spec.note: at most 5 characters',
      'spec.schedule: a string matching ^\\S+ \\S+ \\S+ \\S+ \\S+$',
      'spec.created: a string of format date-time',
      'spec.uid: a string of format uuid',
      'spec.port: an integer or a string',
    ]);
    expect(paths({ size: 1, note: 'ééééé' })).toEqual([]);
  });

  it('refuses a value twice in a list set and two items with one key in a list map', () => {
    expect(
      paths({
        size: 1,
        tags: ['x', 'x'],
        ports: [
          { name: 'a', port: 1 },
          { name: 'a', port: 2 },
        ],
      }),
    ).toEqual([
      'spec.tags[1]: a value not already in the list (a set)',
      'spec.ports[1]: an item whose name no other item of the list has (a map)',
    ]);
  });

  it('requires apiVersion and kind of an embedded resource, and checks its metadata', () => {
    expect(paths({ size: 1, template: { kind: 'Config Map', metadata: { name: 'a/b' } } })).toEqual([
      'spec.template.apiVersion: a value (required: every embedded resource has an apiVersion)',
      'spec.template.kind: a kind: letters and digits, beginning with a letter',
      'spec.template.metadata.name: a name that is a path segment (no "/" or "%", not "." or "..")',
    ]);
  });

  it('runs the CEL rules on the defaulted object, at their fieldPath, with messageExpression and reason', () => {
    const problems = checkCustomResource(
      widget({ size: 1, minReplicas: 11, mode: 'Paused', schedule: '0 * * * *' }),
      schema,
    );
    expect(problems).toEqual([
      { path: 'spec.minReplicas', expected: 'minReplicas must not exceed maxReplicas', found: '11' },
      {
        path: 'spec',
        expected: 'schedule is forbidden in mode Paused',
        found: 'a mapping',
        hint: 'reason FieldValueForbidden',
      },
    ]);
  });
});
