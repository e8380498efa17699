/**
 * The schema check of built-in kinds (src/rules/schema/) agrees with kube-apiserver: near misses of a valid object
 * of each kind (test/cluster/schema-near-miss.ts), created with a server-side dry run and `fieldValidation=Strict`
 * (as kubectl, Flux and Argo CD send them), and their verdicts compared.
 *
 * How the server's verdict is told apart: a value its JSON decoding refuses (a wrong type, an int32 overflow, a
 * quantity, base64 or time it cannot parse, an unknown field under strict field validation) is a 400 BadRequest
 * "… cannot be handled as a <Kind>" with no causes; its validation (`Validate*`) answers 422 Invalid with
 * `details.causes` (FieldValueRequired, FieldValueNotSupported, FieldValueInvalid, …). So:
 * - specforge finds a decoding problem exactly when the server answers a decoding 400;
 * - where specforge finds only a value outside an enum, the server refuses too (422, FieldValueNotSupported);
 * - a 422 for anything else (a validation rule that is not a schema check's) is no disagreement.
 * Seeded and reproducible: FUZZ_SEED and FUZZ_RUNS (cases per kind, 500 by default) change them.
 */
import https from 'node:https';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { checkSchema, builtInPlan } from '../../src/rules/schema/check-schema.js';
import { clusterDescribe, controlPlane } from './helpers.js';
import { kubectl } from './kubectl.js';
import { applies } from './schema-served.js';
import { KINDS, NS, type KindCase } from './schema-kinds.js';
import { nearMiss } from './schema-near-miss.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED =
  process.env.FUZZ_SEED === 'random' ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261202);
/** Requests in flight at once. */
const CONCURRENCY = 16;

type Verdict = 'accepted' | 'decoding' | 'invalid';

interface Answer {
  readonly verdict: Verdict;
  readonly said: string;
}

const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, rejectUnauthorized: false });

/** The server's verdict on creating `o` in `collection` (dry run, strict field validation). */
function ask(collection: string, o: object): Promise<Answer> {
  const info = controlPlane();
  if (info === null) throw new Error('no control plane');
  const body = JSON.stringify(o);
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${info.server}${collection}?dryRun=All&fieldValidation=Strict`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          const status = JSON.parse(text) as { message?: string };
          const said = `${code} ${status.message ?? ''}`;
          if (code < 300) resolve({ verdict: 'accepted', said });
          else if (code === 400 && /cannot be handled as a/.test(status.message ?? ''))
            resolve({ verdict: 'decoding', said });
          else if (code === 422) resolve({ verdict: 'invalid', said });
          else reject(new Error(`unexpected answer: ${said} for ${body}`));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** specforge's schema verdict: its decoding problems, and its enum ones (the server's validation answers those). */
function ours(o: object): { decoding: string[]; validation: string[] } {
  const decoding: string[] = [];
  const validation: string[] = [];
  for (const p of checkSchema(o)) {
    const line = `${p.path}: expected ${p.expected}, found ${p.found}`;
    if (p.expected.startsWith('one of ')) validation.push(line);
    else decoding.push(line);
  }
  return { decoding, validation };
}

/** The disagreement of one case, or undefined when specforge and the server agree. */
function disagreement(o: object, api: Answer): string | undefined {
  const mine = ours(o);
  if (mine.decoding.length > 0 && api.verdict !== 'decoding')
    return `specforge refuses (${mine.decoding.join('; ')}), the server says ${api.said}`;
  if (mine.decoding.length === 0 && api.verdict === 'decoding')
    return `the server refuses (${api.said}), specforge's schema check passes`;
  if (mine.decoding.length === 0 && mine.validation.length > 0 && api.verdict === 'accepted')
    return `specforge refuses (${mine.validation.join('; ')}), the server accepts`;
  return undefined;
}

async function inTurn<T, R>(items: readonly T[], f: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

function casesOf(k: KindCase, index: number): { o: object; where: string }[] {
  const plan = builtInPlan(k.base.apiVersion, k.kind);
  if (plan === undefined) throw new Error(`no schema for ${k.kind}`);
  const choices = fc.sample(fc.array(fc.nat(), { minLength: 16, maxLength: 16 }), {
    numRuns: RUNS,
    seed: SEED + index,
  });
  return [{ o: k.base, where: 'the valid object' }, ...choices.map((c) => nearMiss(k.base, plan, c))];
}

clusterDescribe('the schema check of built-in kinds against kube-apiserver', () => {
  beforeAll(() => {
    kubectl(['create', 'namespace', NS], [0, 1]);
  });

  it.each(KINDS.map((k, i) => ({ ...k, i })))(
    `agrees on ${RUNS} near misses of a $kind (seed ${SEED})`,
    async (k) => {
      const cases = casesOf(k, k.i);
      const answers = await inTurn(cases, (c) => ask(k.collection, c.o));
      const wrong = cases
        .map((c, i) => ({ c, why: disagreement(c.o, answers[i] as Answer) }))
        .filter((d) => d.why !== undefined)
        .map((d) => `${d.c.where}: ${d.why}`);
      expect(wrong.slice(0, 10)).toEqual([]);
      expect(answers[0]?.verdict, answers[0]?.said).toBe('accepted');
      const verdicts = new Set(answers.map((a) => a.verdict));
      expect(verdicts).toContain('decoding');
      expect(verdicts).toContain('accepted');
    },
  );

  it.each([
    ['apps/v1beta1', 'Deployment', 'apiVersion'],
    ['apps/v1', 'Deployent', 'kind'],
    ['v2', 'ConfigMap', 'apiVersion'],
    ['networking.k8s.io/v1beta1', 'Ingress', 'apiVersion'],
    ['batch/v1', 'CronJobs', 'kind'],
  ])(
    'refuses %s %s as kubectl apply does: a version or kind of a served group the release does not serve',
    (apiVersion, kind, path) => {
      const o = { apiVersion, kind, metadata: { name: 'sample', namespace: NS } };
      expect(applies(o).code).toBe(1);
      expect(checkSchema(o).map((p) => p.path)).toEqual([path]);
    },
  );

  it('refuses a v1 List that kubectl unpacks (stricter on purpose: the gate checks objects, not envelopes), and takes groups the release does not have (custom resources)', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed', namespace: NS } }],
    };
    expect(applies(list).code, applies(list).said).toBe(0);
    expect(checkSchema(list).map((p) => p.path)).toEqual(['kind']);
    expect(
      checkSchema({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'g' } }),
    ).toEqual([]);
  });
});
