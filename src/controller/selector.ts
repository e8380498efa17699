/**
 * Kubernetes label selectors (`--selector`), checked up front the way the API server parses them
 * (k8s.io/apimachinery/pkg/labels): comma-separated requirements `key`, `!key`, `key=value`, `key==value`,
 * `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key>n`, `key<n`; keys are qualified names, values label
 * values. A selector the API server would refuse makes every list fail, so the controller would never be ready: it
 * is refused before anything starts. Pure.
 */
import { checkLabelKey, checkLabelValue } from '../rules/k8s-names.js';

const OPERATORS = new Set(['!=', '==', '=', '!', '(', ')', ',', '<', '>']);
const TOKEN = /\s*(!=|==|=|!|\(|\)|,|<|>|[^\s!=(),<>]+)/y;

function tokenize(text: string): string[] | string {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (text.slice(at).trim() !== '') {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (m === null) return `unexpected text at "${text.slice(at)}"`;
    tokens.push(m[1] as string);
    at = TOKEN.lastIndex;
  }
  return tokens;
}

/** Reads tokens one by one; every problem is a sentence. */
class Reader {
  private i = 0;
  constructor(private readonly tokens: readonly string[]) {}

  peek(): string | undefined {
    return this.tokens[this.i];
  }

  next(): string | undefined {
    const t = this.tokens[this.i];
    this.i += 1;
    return t;
  }

  done(): boolean {
    return this.i >= this.tokens.length;
  }
}

function isWord(token: string | undefined): token is string {
  return token !== undefined && !OPERATORS.has(token);
}

function keyProblem(key: string | undefined): string | undefined {
  if (!isWord(key)) return `a label key, found ${describe(key)}`;
  const problem = checkLabelKey(key);
  return problem === undefined ? undefined : `${problem}, found "${key}"`;
}

function valueProblem(value: string): string | undefined {
  const problem = checkLabelValue(value);
  return problem === undefined ? undefined : `${problem}, found "${value}"`;
}

function describe(token: string | undefined): string {
  return token === undefined ? 'the end of the selector' : `"${token}"`;
}

/** `(v1, v2, …)` after `in`/`notin`; empty entries are the empty value, as the API server reads them. */
function setProblem(r: Reader): string | undefined {
  const open = r.next();
  if (open !== '(') return `"(" after in/notin, found ${describe(open)}`;
  for (;;) {
    const value = isWord(r.peek()) ? (r.next() as string) : '';
    const problem = valueProblem(value);
    if (problem !== undefined) return problem;
    const sep = r.next();
    if (sep === ')') return undefined;
    if (sep !== ',') return `"," or ")" in a value set, found ${describe(sep)}`;
  }
}

/** The value after `<` or `>`: an integer. */
function integerProblem(op: string, value: string | undefined): string | undefined {
  return value !== undefined && /^[-+]?\d+$/.test(value)
    ? undefined
    : `an integer after "${op}", found ${describe(value)}`;
}

/** The operator and value(s) after a key, if any. */
function operatorProblem(r: Reader): string | undefined {
  const op = r.peek();
  if (op === undefined || op === ',') return undefined;
  r.next();
  if (op === 'in' || op === 'notin') return setProblem(r);
  if (op === '=' || op === '==' || op === '!=') {
    const value = isWord(r.peek()) ? (r.next() as string) : '';
    return valueProblem(value);
  }
  if (op === '<' || op === '>') return integerProblem(op, r.next());
  return `an operator (=, ==, !=, in, notin, <, >) or "," after the key, found ${describe(op)}`;
}

function requirementProblem(r: Reader): string | undefined {
  if (r.peek() === '!') {
    r.next();
    return keyProblem(r.next());
  }
  return keyProblem(r.next()) ?? operatorProblem(r);
}

/**
 * Undefined when `selector` is a label selector the API server accepts, else a sentence saying what was expected
 * and what was found.
 */
export function labelSelectorProblem(selector: string): string | undefined {
  const tokens = tokenize(selector);
  if (typeof tokens === 'string') return tokens;
  const r = new Reader(tokens);
  while (!r.done()) {
    const problem = requirementProblem(r);
    if (problem !== undefined) return problem;
    const sep = r.next();
    if (sep === undefined) return undefined;
    if (sep !== ',') return `"," between requirements, found ${describe(sep)}`;
    if (r.done()) return 'a requirement after the last ","';
  }
  return undefined;
}
