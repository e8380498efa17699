// Run by test/render/skeleton.test.ts: makes objects whose names and labels V8 cuts out of one long text (as the
// YAML parser cuts them out of a spec file's text), keeps either their skeletons or the strings themselves, lets go
// of the text, and prints whether the heap still holds it. Args: the built skeleton module's URL, and `skeletons`
// or `strings`.
import v8 from 'node:v8';

const [, , moduleUrl, keep] = process.argv;
const { SkeletonList, skeletonsOf } = await import(moduleUrl);
const token = `${Math.random().toString(36).slice(2)}Q`;
let text = `${token.repeat(400)}|web-frontend-service|payments-production|${token.repeat(400)}`;
const cut = (s) => text.slice(text.indexOf(s), text.indexOf(s) + s.length);
let objects = ['Service', 'Deployment'].map((kind) => ({
  json: {
    apiVersion: 'v1',
    kind,
    metadata: {
      name: cut('web-frontend-service'),
      namespace: cut('payments-production'),
      labels: {
        'specforge.dev/spec-kind': 'appservice',
        'specforge.dev/spec-name': cut('web-frontend-service'),
      },
    },
  },
}));
const kept = keep === 'skeletons' ? skeletonsOf(objects) : objects.map((o) => o.json.metadata);
const listed = keep === 'skeletons' ? [...new SkeletonList(kept)] : kept;
text = undefined;
objects = undefined;
globalThis.gc();
const snapshot = JSON.parse(
  await new Promise((resolve) => {
    let s = '';
    v8.getHeapSnapshot()
      .on('data', (d) => (s += d))
      .on('end', () => resolve(s));
  }),
);
const held = snapshot.strings.some((s) => s.includes(token + token));
const names = listed.map((k) => (k.json?.metadata ?? k).name);
console.log(JSON.stringify({ held, names }));
