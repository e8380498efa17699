/**
 * The published JSON Schemas are compiled at build time (scripts/generate-validators.ts into
 * src/specs/generated/): the module in the tree must be what the schemas make now, and its validators must report
 * exactly what ajv compiling the same schemas at run time reports, so every message stays as it was.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import * as jsyaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AJV_OPTIONS,
  EXPORTED,
  SHARED,
  schemaValidatorsSource,
  VALIDATORS_MODULE,
} from '../../scripts/generate-validators.js';
import * as compiled from '../../src/specs/generated/schema-validators.js';
import { checkSchema, type SchemaName } from '../../src/specs/schemas.js';
import { badInputCases } from '../support/bad-input-cases.js';

const schema = (file: string): object =>
  JSON.parse(readFileSync(join('schemas', `${file}.schema.json`), 'utf8')) as object;

/** ajv compiling the published schemas in this process, as every process did before. */
function runtimeValidators(): Map<string, ReturnType<Ajv['compile']>> {
  const ajv = new Ajv(AJV_OPTIONS);
  for (const file of SHARED) ajv.addSchema(schema(file));
  return new Map(Object.entries(EXPORTED).map(([name, file]) => [name, ajv.compile(schema(file))]));
}

type Generated = (data: unknown) => boolean;
const generated = compiled as unknown as Record<string, Generated & { errors?: ErrorObject[] | null }>;

/** Every document of the bad-input cases whose kind has a schema, with its schema's name. */
function badDocuments(): { name: string; kind: string; doc: unknown }[] {
  const out: { name: string; kind: string; doc: unknown }[] = [];
  for (const c of badInputCases) {
    for (const text of Object.values(c.files)) {
      let docs: unknown[];
      try {
        docs = jsyaml.loadAll(text);
      } catch {
        continue; // a YAML error never reaches the schema
      }
      for (const doc of docs) {
        const kind = (doc as { kind?: unknown } | null)?.kind;
        if (typeof kind === 'string' && Object.hasOwn(EXPORTED, kind)) out.push({ name: c.name, kind, doc });
      }
    }
  }
  return out;
}

describe('the JSON Schemas compiled at build time', () => {
  const temp = mkdtempSync(join(tmpdir(), 'specforge-schemas-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('are the module in the tree: regenerating from schemas/ changes nothing (run `npm run build` if this fails)', () => {
    expect(readFileSync(VALIDATORS_MODULE, 'utf8')).toBe(schemaValidatorsSource());
  });

  it('are stale when a schema changes, so the check above fails on a schema edited without a build', () => {
    cpSync('schemas', join(temp, 'schemas'), { recursive: true });
    const file = join(temp, 'schemas', 'myapp.schema.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"maximum": 1000', '"maximum": 999'));
    expect(schemaValidatorsSource(join(temp, 'schemas'))).not.toBe(readFileSync(VALIDATORS_MODULE, 'utf8'));
  });

  it('report exactly the errors ajv reports compiling the same schemas at run time, on every bad-input case', () => {
    const runtime = runtimeValidators();
    const docs = badDocuments();
    expect(docs.length).toBeGreaterThan(40);
    for (const { name, kind, doc } of docs) {
      const atRunTime = runtime.get(kind);
      const atBuildTime = generated[kind];
      if (atRunTime === undefined || atBuildTime === undefined) throw new Error(`no validator for ${kind}`);
      const valid = atBuildTime(doc);
      expect(valid, name).toBe(atRunTime(doc));
      expect(atBuildTime.errors ?? null, name).toEqual(atRunTime.errors ?? null);
    }
  });

  it('check the chart settings, the GitOps settings and the ControllerBundle props too', () => {
    const cases: [SchemaName, unknown][] = [
      ['chart', { namespace: 'Shop' }],
      ['gitops', { argocd: 1 }],
      ['ControllerBundle', { replicas: 'two' }],
    ];
    for (const [name, data] of cases) {
      const problems = checkSchema(name, data);
      expect(problems.length, name).toBeGreaterThan(0);
      const atRunTime = runtimeValidators().get(name);
      expect(atRunTime?.(data)).toBe(false);
    }
  });
});
