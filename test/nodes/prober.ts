/**
 * A steady stream of requests to every exposed Service while something changes (prober-agent.mjs, inside the
 * cluster's network namespace): NodePorts asked from the nodes' addresses, ClusterIPs asked from a pod (through the
 * workload's `/get`). `stop()` returns per target what was sent, answered and failed, and which pods answered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCluster } from './helpers.js';

export interface ProbeTarget {
  readonly name: string;
  readonly url: string;
}

export interface ProbeCounts {
  readonly url: string;
  readonly sent: number;
  readonly ok: number;
  readonly failed: number;
  /** The last few failures, with their time. */
  readonly errors: readonly string[];
  /** Answers per pod name. */
  readonly pods: Readonly<Record<string, number>>;
}

export class Prober {
  private constructor(
    private readonly child: ChildProcess,
    private readonly out: string,
  ) {}

  /** Starts probing `targets` every `intervalMs`; `dir` holds its config and counts. */
  static start(dir: string, targets: readonly ProbeTarget[], intervalMs = 200): Prober {
    const out = join(dir, 'probe-counts.json');
    const config = join(dir, 'probe-config.json');
    writeFileSync(config, JSON.stringify({ targets, intervalMs, out }));
    const child = spawn(
      'nsenter',
      [
        `--net=${nodeCluster().netnsPath}`,
        '--',
        process.execPath,
        join(import.meta.dirname, 'prober-agent.mjs'),
        config,
      ],
      { stdio: 'ignore' },
    );
    return new Prober(child, out);
  }

  /** The counts so far (written every second). */
  counts(): Record<string, ProbeCounts> {
    return existsSync(this.out)
      ? (JSON.parse(readFileSync(this.out, 'utf8')) as Record<string, ProbeCounts>)
      : {};
  }

  /** Stops the prober and returns its final counts. */
  async stop(): Promise<Record<string, ProbeCounts>> {
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    return this.counts();
  }
}
