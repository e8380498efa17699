import { spawn } from 'node:child_process';

/**
 * A git command's whole standard output, run in `root`; rejects with its first line of errors when it fails. `env`
 * is added to this process's environment.
 */
export function gitOutput(
  root: string,
  args: readonly string[],
  input?: string,
  env?: Readonly<Record<string, string>>,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', root, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => reject(new Error(`git ${args[0]}: ${e.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out));
      else {
        const first = Buffer.concat(err).toString().split('\n')[0] ?? '';
        reject(new Error(`git ${args[0]} exited with ${code ?? signal}: ${first}`));
      }
    });
    child.stdin.end(input ?? '');
  });
}
