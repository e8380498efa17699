import { spawn } from 'node:child_process';

/** What a git command printed, when it exited with 0. */
export interface GitAnswer {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

/** How a git command is run. */
export interface GitRunOptions {
  /** Its standard input. @default empty */
  readonly input?: string;
  /** Added to this process's environment. @default none */
  readonly env?: Readonly<Record<string, string>>;
  /** Killed after this long (a hook or file system that hangs), and then a failure. @default none */
  readonly timeoutMs?: number;
}

/**
 * A git command run in `root`: what it printed on both streams; rejects with its first line of errors when it
 * fails, cannot start or is killed.
 */
export function gitRun(
  root: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitAnswer> {
  const { input, env, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', root, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => reject(new Error(`git ${args[0]}: ${e.message}`)));
    child.on('close', (code, signal) => {
      const stderr = Buffer.concat(err);
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
      else {
        const first = stderr.toString().split('\n')[0] ?? '';
        reject(new Error(`git ${args[0]} exited with ${code ?? signal}: ${first}`));
      }
    });
    child.stdin.end(input ?? '');
  });
}

/** A git command's whole standard output, run in `root`; rejects with its first line of errors when it fails. */
export async function gitOutput(root: string, args: readonly string[], input?: string): Promise<Buffer> {
  return (await gitRun(root, args, input === undefined ? {} : { input })).stdout;
}
