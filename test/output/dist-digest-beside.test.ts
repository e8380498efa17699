import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distDigestBeside } from '../../src/output/dist-digest-beside.js';
import { distDigest, writeDist } from '../../src/output/dist-writer.js';
import { MARKER } from '../../src/output/dist-tree.js';
import { tempDir } from '../support/tmp.js';

const stand = (name: string) => ({ url: new URL(`../support/workers/${name}`, import.meta.url) });

/** A dist/ of `charts` charts as a render writes it. */
function dist(charts: number): string {
  const out = join(tempDir(), 'dist');
  const files = new Map<string, string>();
  for (let c = 0; c < charts; c++) {
    files.set(`c${c}/kustomization.yaml`, `${MARKER}\nresources: [cm.yaml]\n`);
    files.set(`c${c}/cm.yaml`, `${MARKER}\nkind: ConfigMap\nmetadata: {name: c${c}}\n`);
  }
  writeDist(out, files);
  return out;
}

describe('distDigestBeside', () => {
  it('works out the digest distDigest gives, and has let go of the lock of dist/ when it resolves', async () => {
    const out = dist(30);
    expect(await distDigestBeside(out)).toBe(distDigest(out));
    // No wait for the lock: a thread still holding it would make this throw.
    expect(() =>
      writeDist(out, new Map([['c0/kustomization.yaml', `${MARKER}\n`]]), { lockWaitMs: 0 }),
    ).not.toThrow();
  });

  it("resolves to its thread's answer, and to undefined when the thread fails, cannot load or answers nothing", async () => {
    const out = dist(1);
    expect(await distDigestBeside(out, stand('posts-digest.mjs'))).toBe('from the thread');
    expect(await distDigestBeside(out, stand('throws.mjs'))).toBeUndefined();
    expect(await distDigestBeside(out, stand('no-such-thread.mjs'))).toBeUndefined();
    expect(await distDigestBeside(out, stand('never-starts.mjs'))).toBeUndefined();
    // A dist/ that specforge did not write: the thread's distDigest throws, and the caller says why itself.
    const foreign = join(tempDir(), 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine\n');
    expect(() => distDigest(foreign)).toThrow(/was not written by specforge/);
    expect(await distDigestBeside(foreign)).toBeUndefined();
  });
});
