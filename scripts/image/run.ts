/** Running the tools an image build needs, each failure one sentence ({@link ImageError}), never a stack trace. */
import { spawnSync } from 'node:child_process';

/** A failure of the image build, said in one sentence; the command prints it and exits 1. */
export class ImageError extends Error {}

export interface RunOptions {
  /** What the command does, for the sentence when it fails (`apt-get download libc6`). */
  readonly what: string;
  /** The sentence when the program is not installed. */
  readonly missing?: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** The last meaningful line a failed command wrote (npm and apt put the reason last). */
function reason(stderr: string, stdout: string): string {
  const lines = `${stderr}\n${stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter(
      (l) =>
        l !== '' && !/unsandboxed|A complete log of this run|npm error (A complete log|Log files)/.test(l),
    );
  const errorLines = lines.filter((l) => /^(E:|npm error|error)/i.test(l));
  const telling = errorLines.filter((l) => !/^npm error (code|errno|syscall) /.test(l));
  return (telling[0] ?? errorLines[0] ?? lines[lines.length - 1] ?? 'no output').slice(0, 300);
}

/** Runs `cmd args`, returns its standard output; throws an {@link ImageError} when it cannot run or fails. */
export function run(cmd: string, args: readonly string[], opts: RunOptions): string {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT')
    throw new ImageError(opts.missing ?? `${cmd} is not installed (needed for ${opts.what})`);
  if (r.error) throw new ImageError(`${opts.what} failed: ${r.error.message}`);
  if (r.status !== 0) throw new ImageError(`${opts.what} failed: ${reason(r.stderr, r.stdout)}`);
  return r.stdout;
}
