import { CORE_SCHEMA, loadAll } from 'js-yaml';

/**
 * Reads YAML that specforge itself emitted (src/output/yaml.ts: block style, strings plain only where YAML 1.1 and
 * 1.2 agree) back into plain values, one per document. js-yaml with the YAML 1.2 core schema: the library the spec
 * reader uses (src/specs/yaml-read.ts), and the one `specforge diff` reads dist/ files with (through that reader,
 * since a dist/ file may have been edited by hand). About ten times faster than `yaml`'s `parseAllDocuments`
 * (docs/decisions.md, "One YAML library for reading"). Throws js-yaml's YAMLException on text that is not YAML.
 */
export function readRenderedYaml(text: string): unknown[] {
  return loadAll(text, { schema: CORE_SCHEMA });
}
