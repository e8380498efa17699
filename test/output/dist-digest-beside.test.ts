import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DistDigestBeside } from '../../src/output/dist-digest-beside.js';
import { lockToRead } from '../../src/output/dist-lock.js';
import { MARKER } from '../../src/output/dist-tree.js';
import { distDigest, NOT_OURS_DIGEST, writeDist } from '../../src/output/dist-writer.js';
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

/** Whether another run could take dist/'s lock now, without waiting. */
function lockFree(out: string): boolean {
  try {
    lockToRead(out, { lockWaitMs: 0 })?.();
    return true;
  } catch {
    return false;
  }
}

describe('DistDigestBeside', () => {
  it("works out distDigest's digest on its thread, holding dist/'s lock until the digest is taken", async () => {
    const out = dist(30);
    const beside = DistDigestBeside.start(out);
    expect(beside).toBeDefined();
    expect(lockFree(out)).toBe(false);
    expect(await beside?.digest()).toBe(distDigest(out));
    expect(lockFree(out)).toBe(true);
  });

  it('lets go of the lock when stopped, its thread still running or not', async () => {
    const out = dist(300);
    const beside = DistDigestBeside.start(out, stand('never-ends.mjs'));
    expect(lockFree(out)).toBe(false);
    await beside?.stop();
    expect(lockFree(out)).toBe(true);
    await beside?.stop();
    expect(lockFree(out)).toBe(true);
  });

  it('starts nothing while another run holds the lock of dist/', () => {
    const out = dist(1);
    const release = lockToRead(out, {});
    try {
      expect(DistDigestBeside.start(out)).toBeUndefined();
    } finally {
      release?.();
    }
  });

  it("gives its thread's answer, and none when the thread fails, cannot load or answers nothing", async () => {
    const out = dist(1);
    const digestWith = (name: string) => DistDigestBeside.start(out, stand(name))?.digest();
    expect(await digestWith('posts-digest.mjs')).toBe('from the thread');
    expect(await digestWith('throws.mjs')).toBeUndefined();
    expect(await digestWith('no-such-thread.mjs')).toBeUndefined();
    // A dist/ that specforge did not write: a digest no render has, from the thread as from the caller (the render
    // or check that follows refuses the directory in its own words).
    const foreign = join(tempDir(), 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine\n');
    expect(distDigest(foreign)).toBe(NOT_OURS_DIGEST);
    expect(await DistDigestBeside.start(foreign)?.digest()).toBe(NOT_OURS_DIGEST);
    expect(lockFree(foreign)).toBe(true);
  });
});
