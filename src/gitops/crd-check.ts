import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import type { Manifest } from '../rules/manifest.js';

/**
 * The tools' own schemas for the objects specforge generates: the `openAPIV3Schema` of Argo CD's Application CRD
 * (v3.6.1) and Flux's Kustomization CRD (kustomize-controller v1.9.5), copied from their releases by
 * scripts/vendor-crd-schemas.mjs. CRD schemas carry the API server's own checks (patterns, enums, required fields)
 * that model packages leave out (docs/decisions.md, "GitOps objects").
 */
let compiled: Map<string, ValidateFunction> | undefined;

/**
 * Compiled on first use, and ajv and the schemas (330 kB) loaded then: a render that generates no GitOps object
 * (every `validate` of plain charts) pays for none of it at start-up.
 */
function validators(): Map<string, ValidateFunction> {
  if (compiled !== undefined) return compiled;
  const require = createRequire(import.meta.url);
  const { Ajv } = require('ajv') as { Ajv: typeof AjvClass };
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  const schema = (file: string): object => withoutComment(require(`../../schemas/vendor/${file}`) as object);
  compiled = new Map([
    ['argoproj.io/v1alpha1/Application', ajv.compile(schema('argoproj.io_v1alpha1_application.json'))],
    [
      'kustomize.toolkit.fluxcd.io/v1/Kustomization',
      ajv.compile(schema('kustomize.toolkit.fluxcd.io_v1_kustomization.json')),
    ],
  ]);
  return compiled;
}

function withoutComment(schema: object): object {
  const rest: Record<string, unknown> = { ...schema };
  delete rest.$comment;
  return rest;
}

/** Problems of a generated object under its CRD's schema, as `path: message`; empty when valid. */
export function crdProblems(obj: Manifest): string[] {
  const validate = validators().get(`${obj.apiVersion}/${obj.kind}`);
  if (validate === undefined) return [`no vendored schema for ${obj.apiVersion} ${obj.kind}`];
  if (validate(obj)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath === '' ? '(root)' : e.instancePath.slice(1).replaceAll('/', '.')} ${e.message ?? ''}`,
  );
}
