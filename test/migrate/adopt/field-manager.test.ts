import { describe, expect, it } from 'vitest';
import { fieldManagerProblem, managerNameProblem } from '../../../src/migrate/adopt/field-manager.js';

describe('the field manager adopt hands fields to', () => {
  it.each([
    ['', /found an empty one/],
    ['   ', /found only whitespace/],
    [' kustomize-controller', /without leading or trailing whitespace/],
    ['x'.repeat(129), /at most 128 bytes .*found 129/],
    ['é'.repeat(65), /at most 128 bytes .*found 130/],
    ['kustomize\tcontroller', /printable characters only .*found U\+0009 at position 10/],
    ['argo\u200bcd', /found U\+200B/],
  ])('refuses %j, saying what it expected and what it found', (name, message) => {
    expect(managerNameProblem('--field-manager', name)).toMatch(message);
  });

  it.each(['kustomize-controller', 'argocd-controller', 'x'.repeat(128), 'my tool', 'flüx'])(
    'takes %j, a name the API server takes',
    (name) => {
      expect(managerNameProblem('--field-manager', name)).toBeUndefined();
    },
  );

  it("refuses an old operator's own manager, naming the operators' managers and the fix", () => {
    expect(fieldManagerProblem('manager', ['opdemo', 'manager'])).toMatch(
      /^--field-manager: expected a manager that is not an old operator's \(opdemo, manager\), found "manager".*kustomize-controller for Flux/,
    );
    expect(fieldManagerProblem('kustomize-controller', ['opdemo', 'manager'])).toBeUndefined();
  });
});
