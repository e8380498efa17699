// The traffic prober of the node suites. Runs inside the cluster's network namespace (a node's view): every
// `intervalMs` it sends one HTTP GET to each target at once (2 s timeout), and counts per target the answers, the
// failures (with the last few errors) and which pods answered (the workload image says `pod=NAME ...`). It writes the
// counts to `out` every second and once more when it gets SIGTERM, then exits.
//
//   node prober-agent.mjs CONFIG.json   (config: {"targets": [{"name", "url"}], "intervalMs", "out"})
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const counts = Object.fromEntries(
  config.targets.map((t) => [t.name, { url: t.url, sent: 0, ok: 0, failed: 0, errors: [], pods: {} }]),
);
let stopping = false;

async function probe(target) {
  const c = counts[target.name];
  c.sent++;
  try {
    const res = await fetch(target.url, { signal: AbortSignal.timeout(2000) });
    const body = await res.text();
    const pod = /pod=(\S+)/.exec(body)?.[1];
    if (res.status === 200 && pod !== undefined) {
      c.ok++;
      c.pods[pod] = (c.pods[pod] ?? 0) + 1;
    } else {
      c.failed++;
      c.errors = [...c.errors, `${new Date().toISOString()} HTTP ${res.status} ${body.slice(0, 120)}`].slice(
        -5,
      );
    }
  } catch (err) {
    c.failed++;
    c.errors = [...c.errors, `${new Date().toISOString()} ${err?.cause?.code ?? err?.name ?? err}`].slice(-5);
  }
}

function save() {
  writeFileSync(`${config.out}.tmp`, JSON.stringify(counts));
  renameSync(`${config.out}.tmp`, config.out);
}

process.on('SIGTERM', () => {
  stopping = true;
});

const saver = setInterval(save, 1000);
while (!stopping) {
  const started = Date.now();
  await Promise.all(config.targets.map(probe));
  await new Promise((r) => setTimeout(r, Math.max(0, config.intervalMs - (Date.now() - started))));
}
clearInterval(saver);
save();
