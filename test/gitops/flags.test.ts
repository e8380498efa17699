import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  droppedNote,
  droppedTools,
  oneOffNote,
  oneOffTools,
  renderCommand,
  shellWord,
} from '../../src/gitops/flags.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';
import { WEB_APP_SPEC } from '../support/spec-texts.js';

const APP = WEB_APP_SPEC;

/** A charts directory and an output directory beside it, in a folder whose name needs quoting in a shell. */
function project(files: Record<string, string> = {}): { charts: string; out: string } {
  const root = writeFiles(tempDir("specforge it's-"), { 'charts/web/app.yaml': APP, ...files });
  return { charts: join(root, 'charts'), out: join(root, 'dist') };
}

/** The command a message names between backticks after "Run", as a POSIX shell splits it. */
function printedCommand(message: string): string[] {
  const command = /Run `([^`]+)`/.exec(message)?.[1];
  expect(command).toBeDefined();
  const words = execFileSync('sh', ['-c', `printf '%s\\0' ${command ?? ''}`], { encoding: 'utf8' });
  return words.split('\0').slice(0, -1);
}

describe('oneOffTools and droppedTools', () => {
  it('take a flag the settings file does not set as one-off, and one it sets as no news', () => {
    expect(oneOffTools({}, ['flux'])).toEqual(['flux']);
    expect(oneOffTools({ flux: {} }, ['flux'])).toEqual([]);
    expect(oneOffNote('flux', 'charts/gitops.yaml')).toContain('add `flux: {}` to charts/gitops.yaml');
  });

  it('find a tool directory the output holds and a render does not write', () => {
    expect(droppedTools(['web', '_flux', '_argocd'], ['web'])).toEqual(['argocd', 'flux']);
    expect(droppedTools(['web', '_flux'], ['web', '_flux'])).toEqual([]);
    expect(droppedNote('flux', 'dist', 'charts/gitops.yaml', 'removes')).toMatch(
      /^this render removes dist\/_flux\/, written by an earlier render given `--gitops flux`/,
    );
  });
});

describe('renderCommand', () => {
  it('names charts, output and the --gitops flags, each word quoted only when a shell needs it', () => {
    expect(renderCommand('charts', 'dist', ['flux'])).toBe(
      'specforge render charts --out dist --gitops flux',
    );
    expect(renderCommand('my charts', 'dist', [])).toBe("specforge render 'my charts' --out dist");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});

describe('GitOps settings persist, flags are one-off', () => {
  it('says that --gitops flux without a flux section is one-off, and the plain render after it says what it removes', async () => {
    const { charts, out } = project();
    const once = await run(['render', charts, '--out', out, '--gitops', 'flux']);
    expect(once.code).toBe(0);
    expect(once.err).toContain(
      `specforge: note: \`--gitops flux\` is not set in ${join(charts, 'gitops.yaml')}: only a run given the flag generates _flux/`,
    );
    expect(existsSync(join(out, '_flux/web.yaml'))).toBe(true);
    const plain = await run(['render', charts, '--out', out]);
    expect(plain.code).toBe(0);
    expect(plain.err).toContain(`specforge: note: this render removes ${out}/_flux/`);
    expect(plain.err).toContain(`To keep it, add \`flux: {}\` to ${join(charts, 'gitops.yaml')}`);
    expect(existsSync(join(out, '_flux'))).toBe(false);
  });

  it('never drops what charts/gitops.yaml asks for: a plain render after a flagged one keeps _flux/, without a note', async () => {
    const { charts, out } = project({ 'charts/gitops.yaml': 'flux: {}\n' });
    expect((await run(['render', charts, '--out', out, '--gitops', 'flux'])).err).toBe('');
    const plain = await run(['render', charts, '--out', out]);
    expect(plain).toMatchObject({ code: 0, err: '' });
    expect(plain.out).toMatch(/is up to date/);
    expect(existsSync(join(out, '_flux/web.yaml'))).toBe(true);
  });

  it("check's hint is the exact render command with check's flags: running it makes check pass", async () => {
    const { charts, out } = project();
    await run(['render', charts, '--out', out, '--gitops', 'flux']);
    writeFileSync(join(charts, 'web/app.yaml'), APP.replace('nginx:1.27', 'nginx:1.28'));
    const drift = await run(['check', charts, '--out', out, '--gitops', 'flux']);
    expect(drift.code).toBe(1);
    const [program, ...args] = printedCommand(drift.err);
    expect(program).toBe('specforge');
    expect(args).toEqual(['render', charts, '--out', out, '--gitops', 'flux']);
    expect((await run(args)).code).toBe(0);
    expect((await run(['check', charts, '--out', out, '--gitops', 'flux'])).code).toBe(0);
  });

  it('a plain check of an output a one-off flag wrote names the flag, and its printed command makes it pass', async () => {
    const { charts, out } = project();
    await run(['render', charts, '--out', out, '--gitops', 'flux']);
    const drift = await run(['check', charts, '--out', out]);
    expect(drift.code).toBe(1);
    expect(drift.err).toContain(
      `specforge: note: ${out}/_flux/ was written by a render given \`--gitops flux\`, which ${join(charts, 'gitops.yaml')} does not set`,
    );
    const [, ...args] = printedCommand(drift.err);
    expect((await run(args)).code).toBe(0);
    expect((await run(['check', charts, '--out', out])).code).toBe(0);
  });
});
