/**
 * A network namespace the test run creates: every cluster component runs in it (`nsenter --net`, not
 * `ip netns exec`, which mounts a fresh /sys that hides the cgroup mounts the kubelet needs), so node, pod and
 * Service addresses, bridges, iptables rules and listeners never exist on the host.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

export class Netns {
  readonly path: string;

  private constructor(readonly name: string) {
    this.path = `/run/netns/${name}`;
  }

  /** `ip netns add NAME`, loopback up. */
  static create(name: string): Netns {
    run('ip', ['netns', 'add', name]);
    const ns = new Netns(name);
    ns.exec('ip', ['link', 'set', 'lo', 'up']);
    return ns;
  }

  /** The argv that runs `cmd args` inside the namespace. */
  argv(cmd: string, args: readonly string[]): [string, string[]] {
    return ['nsenter', [`--net=${this.path}`, '--', cmd, ...args]];
  }

  /** Runs to completion inside the namespace; throws with its output on a non-zero exit. */
  exec(cmd: string, args: readonly string[], input?: string): string {
    const [c, a] = this.argv(cmd, args);
    return run(c, a, input);
  }

  /** Like exec, but returns the exit code and output instead of throwing. */
  tryExec(cmd: string, args: readonly string[], timeoutMs = 15_000): { code: number; out: string } {
    const [c, a] = this.argv(cmd, args);
    const r = spawnSync(c, a, { encoding: 'utf8', timeout: timeoutMs });
    return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
  }

  /** Starts a long-running program inside the namespace, in a session of its own, output to `logFile`. */
  spawn(cmd: string, args: readonly string[], logFile: string, env?: NodeJS.ProcessEnv): ChildProcess {
    const [c, a] = this.argv(cmd, args);
    const out = openSync(logFile, 'a');
    const child = spawn(c, a, { stdio: ['ignore', out, out], detached: true, env: env ?? process.env });
    closeSync(out);
    return child;
  }

  delete(): void {
    spawnSync('ip', ['netns', 'del', this.name]);
  }
}

export function run(cmd: string, args: readonly string[], input?: string): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...(input === undefined ? {} : { input }) });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr}${r.stdout}`.trim());
  return r.stdout;
}
