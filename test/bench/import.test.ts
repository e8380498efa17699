import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.js';

const REPO = join(import.meta.dirname, '..', '..');

describe('bench/import.ts (part of npm run bench)', () => {
  const empty = tempDir('bench-import-no-cp-');
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it('says in one sentence that the control plane is not built, and exits 1 without a stack trace', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SPECFORGE_CP_DIR: empty };
    for (const name of ['SPECFORGE_ETCD', 'SPECFORGE_KUBE_APISERVER', 'SPECFORGE_KUBE_CONTROLLER_MANAGER'])
      delete env[name];
    const r = spawnSync(process.execPath, [join(REPO, 'node_modules/tsx/dist/cli.mjs'), 'bench/import.ts'], {
      cwd: REPO,
      env,
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^bench import: cannot run here\. .*`npm run control-plane`/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  }, 60_000);
});
