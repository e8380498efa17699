import {
  constructFromEvents,
  CORE_SCHEMA,
  EVENT_ID,
  getScalarValue,
  parseEvents,
  SCALAR_STYLE,
  type AliasEvent,
  type Event,
  type ScalarEvent,
} from 'js-yaml';
import type { FieldPath } from '../rules/field-path.js';
import type { Problem } from '../rules/problem.js';

/**
 * YAML text to plain values, read the way specforge promises: YAML 1.2 (core schema), and wherever a YAML 1.1
 * reader such as kubectl (sigs.k8s.io/yaml, go-yaml v2) would read a plain scalar differently, an error asking to
 * quote it instead of a silent second meaning; aliases bounded in number and in expanded size. Pure.
 *
 * The 1.1 readings that differ (go-yaml v2's resolver): `y`/`yes`/`on`/`n`/`no`/`off` in any case of those
 * spellings are booleans; `012` is octal; `0b101` and `1_000` are integers; `<<` merges; a `~`/`null`/empty key is
 * a null key. Everything else reads alike (`0o12`, `0x1F`, `1e3`, `1:20`, `2001-12-14`, quoted strings): asked of
 * kubectl itself by test/cluster/yaml-readings.test.ts.
 */

/**
 * A problem found while reading: the problem record, with the document and the source offset it concerns (the
 * caller turns the offset into a line and column).
 */
export type ReadProblem = Problem & {
  /** 1-based document index. */
  readonly document: number;
  readonly offset: number;
};

/** At most this many alias nodes (`*ref`) per document. */
export const MAX_ALIASES = 1_000;
/** A document may expand (aliases resolved) to at most this much JSON: the API server's request limit, 3 MiB. */
export const MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;

const BOOL_11 = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const NULL_KEY = /^(~|null|Null|NULL|)$/;
const MAYBE = /^[yYnNoO0-9+\-.]/;
const GO_INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/**
 * The number go-yaml v2 (kubectl) reads from a plain scalar, if any: underscores dropped, then Go's `ParseInt`
 * with base 0 (`0x`, `0o`, `0b` in either case, a leading `0` for octal, a sign), then YAML-style floats.
 */
function goYamlNumber(raw: string): number | undefined {
  if (!/^[-+0-9.]/.test(raw)) return undefined;
  const plain = raw.replace(/_/g, '');
  const int = GO_INT.exec(plain);
  if (int === null) {
    const float = FLOAT.test(plain) ? Number(plain) : undefined;
    return float !== undefined && Number.isFinite(float) ? float : undefined; // out of range: a string
  }
  const value = goIntValue((int[2] ?? '').toLowerCase());
  // Past 64 bits Go's ParseInt fails, and go-yaml keeps the text as a string.
  if (!Number.isFinite(value) || Math.abs(value) > 2 ** 63) return undefined;
  return int[1] === '-' ? -value : value;
}

/** An unsigned Go integer literal (lower case) by its prefix: 0x, 0o, 0b, a leading 0 (octal), or decimal. */
function goIntValue(digits: string): number {
  const prefixed = /^0([xob])(.*)$/.exec(digits);
  if (prefixed !== null)
    return parseInt(prefixed[2] ?? '0', { x: 16, o: 8, b: 2 }[prefixed[1] as 'x' | 'o' | 'b']);
  return digits.length > 1 && digits.startsWith('0') ? parseInt(digits, 8) : parseInt(digits, 10);
}

/** The number YAML 1.2's core schema (specforge's reader) reads from a plain scalar, if any. */
function core12Number(raw: string): number | undefined {
  if (/^[-+]?[0-9]+$/.test(raw)) return Number(raw);
  if (/^0o[0-7]+$/.test(raw)) return parseInt(raw.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(raw)) return parseInt(raw.slice(2), 16);
  return FLOAT.test(raw) ? Number(raw) : undefined;
}

/** How kubectl (YAML 1.1) reads a plain scalar, when that differs from YAML 1.2; undefined when alike. */
export function yaml11Reading(raw: string): string | undefined {
  if (!MAYBE.test(raw)) return undefined;
  if (BOOL_11.test(raw)) return `the boolean ${/^(y|yes|on)$/i.test(raw)}`;
  const kubectl = goYamlNumber(raw);
  const yaml12 = core12Number(raw);
  if (
    kubectl === yaml12 ||
    (kubectl !== undefined && yaml12 !== undefined && Object.is(kubectl + 0, yaml12 + 0))
  )
    return undefined;
  if (kubectl === undefined) return `the string ${JSON.stringify(raw)}`;
  return /^[-+]?0[0-7_]+$/.test(raw) ? `the octal number ${kubectl}` : `the number ${kubectl}`;
}

/** A key as read: its event, decoded only when a path is written; or a sequence's index. */
type KeyRef = ScalarEvent | AliasEvent | number;

interface Frame {
  readonly kind: 'map' | 'seq';
  /** The frame of the collection holding this one, and where in it this one is (none at the top). */
  readonly parent: Frame | undefined;
  readonly at: KeyRef | undefined;
  /** map: the pending key, or undefined while a key is expected; seq: the next index. */
  key: KeyRef | undefined;
  expectKey: boolean;
}

/** Reads every document of `text`. Throws js-yaml's YAMLException on a syntax error (the caller locates it). */
export function readYamlDocuments(
  text: string,
  filename: string,
): { docs: unknown[]; problems: ReadProblem[] } {
  const events = parseEvents(text, { filename });
  const problems = scanEvents(text, events);
  const docs = constructFromEvents(events, {
    source: text,
    filename,
    schema: CORE_SCHEMA,
    maxAliases: MAX_ALIASES,
  });
  docs.forEach((doc, i) => {
    if (expandedBytes(doc, MAX_DOCUMENT_BYTES) > MAX_DOCUMENT_BYTES)
      problems.push({
        document: i + 1,
        path: [],
        offset: 0,
        expected: `a document of at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB once aliases are expanded (the API server's request limit)`,
        found: 'more',
        hint: 'Split the spec, or write the repeated parts out instead of using anchors and aliases.',
      });
  });
  return { docs, problems };
}

/** The 1.1-vs-1.2 ambiguities of a stream of events, with their paths. */
function scanEvents(text: string, events: readonly Event[]): ReadProblem[] {
  const scanner = new EventScanner(text);
  for (const e of events) scanner.on(e);
  return scanner.problems;
}

/**
 * Walks events keeping where the current node is (the keys of mappings, the indices of sequences). A path is
 * written only for a problem: most nodes have none, and a path a node was a quarter of a render's parsing garbage.
 */
class EventScanner {
  readonly problems: ReadProblem[] = [];
  private top: Frame | undefined;
  private document = 0;

  constructor(private readonly text: string) {}

  on(e: Event): void {
    if (e.type === EVENT_ID.DOCUMENT) {
      this.document++;
      this.top = undefined;
    } else if (e.type === EVENT_ID.POP) {
      this.top = this.top?.parent;
      advance(this.top);
    } else this.node(e);
  }

  private node(e: Exclude<Event, { type: typeof EVENT_ID.DOCUMENT | typeof EVENT_ID.POP }>): void {
    const top = this.top;
    const isKey = top?.kind === 'map' && top.expectKey;
    const at = hereIn(top);
    if (e.type === EVENT_ID.SCALAR) this.scan(e, top, isKey);
    if (e.type === EVENT_ID.SCALAR || e.type === EVENT_ID.ALIAS) {
      this.leaf(top, isKey ? e : undefined);
      return;
    }
    if (isKey && top !== undefined) top.expectKey = false;
    const map = e.type === EVENT_ID.MAPPING;
    this.top = {
      kind: map ? 'map' : 'seq',
      parent: top,
      at,
      key: map ? undefined : 0,
      expectKey: map,
    };
  }

  /** A scalar or alias read: the pending key of a mapping when `key` is given, else a value. */
  private leaf(top: Frame | undefined, key: ScalarEvent | AliasEvent | undefined): void {
    if (key !== undefined && top !== undefined) {
      top.key = key;
      top.expectKey = false;
    } else advance(top);
  }

  /** Keeps a scalar's problem, if any, with its path: a key's is the mapping's path and the key as written. */
  private scan(e: ScalarEvent, top: Frame | undefined, isKey: boolean): void {
    const problem = scalarProblem(this.text, e, isKey);
    if (problem === undefined) return;
    const here = this.pathOf(top);
    const path = isKey ? [...here, this.text.slice(e.valueStart, e.valueEnd)] : here;
    this.problems.push({ document: this.document, path, ...problem });
  }

  /** The path of the node about to be read under `top`. */
  private pathOf(top: Frame | undefined): FieldPath {
    const here = hereIn(top);
    const path = this.pathOfFrame(top);
    return here === undefined ? path : [...path, this.keyText(here)];
  }

  /** The path of the collection `frame` stands for. */
  private pathOfFrame(frame: Frame | undefined): FieldPath {
    const path: (string | number)[] = [];
    for (let f = frame; f !== undefined; f = f.parent) if (f.at !== undefined) path.push(this.keyText(f.at));
    return path.reverse();
  }

  private keyText(key: KeyRef): string | number {
    if (typeof key === 'number') return key;
    return key.type === EVENT_ID.SCALAR ? getScalarValue(this.text, key) : '*';
  }
}

/** Where the node about to be read under `top` is in it: its key or index, or none while a key is read. */
function hereIn(top: Frame | undefined): KeyRef | undefined {
  return top === undefined || top.expectKey ? undefined : top.key;
}

/** After a value: a map expects its next key, a sequence moves to its next index. */
function advance(top: Frame | undefined): void {
  if (top === undefined) return;
  if (top.kind === 'map') top.expectKey = true;
  else top.key = (top.key as number) + 1;
}

/** What is wrong with a scalar, if anything; its path is the caller's. */
function scalarProblem(
  text: string,
  e: ScalarEvent,
  isKey: boolean,
): Omit<ReadProblem, 'document' | 'path'> | undefined {
  if (e.style !== SCALAR_STYLE.PLAIN) return undefined;
  const raw = text.slice(e.valueStart, e.valueEnd);
  if (isKey && raw === '<<')
    return {
      offset: e.valueStart,
      expected: 'no merge key (kubectl merges `<<`, YAML 1.2 keeps it as a key named "<<")',
      found: 'a merge key <<',
      hint: 'Write the merged fields out.',
    };
  if (isKey && NULL_KEY.test(raw))
    return {
      offset: e.valueStart,
      expected: 'a key that is a string',
      found: `a null key ${JSON.stringify(raw)}`,
      hint: 'Quote the key if it is meant as text.',
    };
  const reading = yaml11Reading(raw);
  if (reading === undefined) return undefined;
  return {
    offset: e.valueStart,
    expected: `a ${isKey ? 'key' : 'value'} that YAML 1.1 (kubectl) and YAML 1.2 read alike`,
    found: `${raw}, which kubectl reads as ${reading} and YAML 1.2 as ${describe12(raw)}`,
    hint: `Quote it ("${raw}") if it is text, or write the number or boolean unambiguously.`,
  };
}

function describe12(raw: string): string {
  const n = core12Number(raw);
  return n === undefined ? `the string ${JSON.stringify(raw)}` : `the number ${n}`;
}

/**
 * The JSON size of `value` with aliases expanded, counted until it passes `limit` (so a billion-laughs document
 * costs at most `limit` steps, not its expanded size).
 */
export function expandedBytes(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') {
      total += typeof v === 'string' ? v.length + 2 : String(v).length;
      continue;
    }
    if (Array.isArray(v)) {
      total += 2 + v.length;
      for (const item of v) stack.push(item);
      continue;
    }
    // keys, not entries: no [key, value] array per field of every document read
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record);
    total += 2 + keys.length;
    for (const k of keys) {
      total += k.length + 3;
      stack.push(record[k]);
    }
  }
  return total;
}
