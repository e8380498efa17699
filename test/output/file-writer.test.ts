import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileWriter, WRITE_HERE_FIRST } from '../../src/output/file-writer.js';
import { tempDir } from '../support/tmp.js';

/** `n` files of distinct bytes, in one directory. */
function files(dir: string, n: number): [string, string][] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: n }, (_, i) => [join(dir, `f${i}.yaml`), `i: ${i}\n${'x'.repeat(i % 97)}\n`]);
}

describe('FileWriter', () => {
  it('writes every file given, more than may wait for the disk at once, each with its bytes', () => {
    const dir = join(tempDir(), 'out');
    // More than the files it lets wait for the disk at once (1,024): the writer waits for its thread on the way.
    const all = files(dir, 2500);
    const writer = new FileWriter();
    for (const [path, bytes] of all) writer.write(path, bytes);
    writer.drain();
    writer.stop();
    expect(readdirSync(dir)).toHaveLength(all.length);
    for (const [path, bytes] of all) expect(readFileSync(path, 'utf8')).toBe(bytes);
  });

  it("throws a write that failed on its thread from drain, with the code and path of the file system's error", () => {
    const dir = join(tempDir(), 'out');
    const all = files(dir, WRITE_HERE_FIRST + 100);
    // Well past the files written here: this one goes to the thread, whose directory does not exist.
    const missing = join(dir, 'missing', 'f.yaml');
    all.splice(WRITE_HERE_FIRST + 50, 0, [missing, 'x\n']);
    const writer = new FileWriter();
    // Each write here is fine; the thread's failure comes back from drain, and again when asked again.
    for (const [path, bytes] of all.slice(0, WRITE_HERE_FIRST + 51)) writer.write(path, bytes);
    const failure = (): unknown => {
      try {
        writer.drain();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    for (const thrown of [failure(), failure()]) {
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown).toMatchObject({ code: 'ENOENT', path: missing });
    }
    writer.stop();
  });

  it('writes what it sent its thread itself when the thread does not start in time', () => {
    const dir = join(tempDir(), 'out');
    const all = files(dir, WRITE_HERE_FIRST + 150);
    const writer = new FileWriter({ thread: support('never-starts.mjs'), startWaitMs: 300 });
    for (const [path, bytes] of all) writer.write(path, bytes);
    writer.drain();
    writer.stop();
    for (const [path, bytes] of all) expect(readFileSync(path, 'utf8')).toBe(bytes);
  });

  it('fails, and stops without waiting for ever, when its thread started and writes nothing', () => {
    const dir = join(tempDir(), 'out');
    const writer = new FileWriter({ thread: support('stalls.mjs'), stallMs: 300 });
    for (const [path, bytes] of files(dir, WRITE_HERE_FIRST + 10)) writer.write(path, bytes);
    expect(() => writer.drain()).toThrow(
      'the thread writing the files made no progress for 0.3 s (it stopped, or the disk does not answer)',
    );
    writer.stop();
    expect(readdirSync(dir)).toHaveLength(WRITE_HERE_FIRST);
  });
});

/** A stand-in thread of test/support/workers/. */
function support(name: string): { url: URL } {
  return { url: new URL(`../support/workers/${name}`, import.meta.url) };
}
