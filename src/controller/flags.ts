/**
 * The command line of `specforge controller`: its usage text and its flags, each checked as the API server or the
 * controller would take it (exit 2 on the first that is not).
 */
import { parseArgs } from 'node:util';
import { checkDns1123Label, subdomainProblem } from '../rules/k8s-names.js';
import { jsonLogger, type Level } from './log.js';
import { identityProblem, MAX_WORKERS, MIN_WORKERS, type ControllerOptions } from './options.js';
import { labelSelectorProblem } from './selector.js';

/** `specforge controller --help`. */
export const CONTROLLER_USAGE = `Usage: specforge controller [options]

Runs the NodePool controller until SIGTERM or SIGINT: labels and taints the Nodes of each NodePool.

  --kubeconfig PATH        kubeconfig file (default: KUBECONFIG, ~/.kube/config, in-cluster)
  --namespace NS           namespace of the leader-election Lease (default specforge-system)
  --lease-name NAME        Lease name (default specforge-nodepool-controller)
  --identity ID            leader-election identity (default: hostname + random suffix)
  --leader-elect BOOL      true|false (default true)
  --port N                 /healthz, /readyz and /metrics port, 0-65535, 0: any free port (default 8080)
  --resync-seconds N       re-check every object this often, 0-86400, 0: never (default 600)
  --workers N              concurrent reconciles, ${MIN_WORKERS}-${MAX_WORKERS} (default 8)
  --selector SELECTOR      only Nodes and NodePools matching this label selector (e.g. shard=a,tier!=x)
  --log-level LEVEL        debug|info|warn|error (default info)

Exit codes: 0 stopped gracefully, 1 failed or lost its Lease (the kubelet restarts it), 2 usage error.
`;

/** Inclusive bounds of each numeric flag. */
const RANGES = {
  port: [0, 65_535],
  'resync-seconds': [0, 86_400],
  workers: [MIN_WORKERS, MAX_WORKERS],
} as const;

/** A numeric flag: digits only (no sign, exponent, fraction or hex), within its {@link RANGES}. */
function toInt(value: string | undefined, flag: keyof typeof RANGES): number | undefined {
  if (value === undefined) return undefined;
  const [min, max] = RANGES[flag];
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new Error(`--${flag}: expected an integer from ${min} to ${max}, found "${value}".`);
  return n;
}

/** A name flag: must be a name of the rule the API server applies to it. */
function toName(
  value: string | undefined,
  flag: string,
  check: (v: string) => string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const problem = check(value);
  if (problem !== undefined) throw new Error(`--${flag}: expected ${problem}, found "${value}".`);
  return value;
}

function toSelector(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = labelSelectorProblem(value);
  if (problem !== undefined)
    throw new Error(
      `--selector: expected a Kubernetes label selector (key=value, key!=value, key in (a,b), !key, …, ` +
        `comma-separated): ${problem} in "${value}".`,
    );
  return value;
}

/** The options the flags ask for, or `help`; throws an Error naming the first flag that is wrong. */
export function parseControllerArgs(argv: readonly string[]): ControllerOptions & { help?: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      kubeconfig: { type: 'string' },
      namespace: { type: 'string' },
      'lease-name': { type: 'string' },
      identity: { type: 'string' },
      'leader-elect': { type: 'string' },
      port: { type: 'string' },
      'resync-seconds': { type: 'string' },
      workers: { type: 'string' },
      selector: { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const leaderElect = values['leader-elect'];
  if (leaderElect !== undefined && leaderElect !== 'true' && leaderElect !== 'false') {
    throw new Error(`--leader-elect: expected true or false, found "${leaderElect}".`);
  }
  const level = (values['log-level'] ?? 'info') as Level;
  if (!['debug', 'info', 'warn', 'error'].includes(level))
    throw new Error(`--log-level: expected debug, info, warn or error, found "${level}".`);
  return {
    kubeconfig: values.kubeconfig,
    namespace: toName(values.namespace, 'namespace', checkDns1123Label),
    leaseName: toName(values['lease-name'], 'lease-name', subdomainProblem),
    identity: toName(values.identity, 'identity', identityProblem),
    leaderElect: leaderElect !== 'false',
    port: toInt(values.port, 'port') ?? 8080,
    resyncSeconds: toInt(values['resync-seconds'], 'resync-seconds'),
    workers: toInt(values.workers, 'workers'),
    selector: toSelector(values.selector),
    logger: jsonLogger(level),
    processMetrics: true,
    help: values.help,
  };
}
