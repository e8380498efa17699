import { checkAffinity } from './core-affinity.js';
import { checkImage } from './core-container.js';
import { checkEnv } from './core-env.js';
import { checkResources } from './core-resources.js';
import { checkHostPorts } from './core-host-ports.js';
import { checkHandler } from './core-handler.js';
import { checkLifecycle } from './core-lifecycle.js';
import {
  checkContainerSecurityContext,
  checkPodSecurityContext,
  usesHostUsers,
} from './core-security-context.js';
import { checkTolerations } from './core-tolerations.js';
import { checkTopologySpread } from './core-topology-spread.js';
import { checkVolumes } from './core-volumes.js';
import type { EnvVar, ResourceRequirements } from './core-types.js';
import type { FieldPath } from './field-path.js';
import { checkDns1123Label, checkPortName, subdomainProblem } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import {
  checkLabelMap,
  checkPortNumber,
  int,
  invalid,
  list,
  nonNegative,
  notOneOf,
  push,
  rec,
  records,
  required,
  set,
  str,
} from './validation-kit.js';

/**
 * A pod's spec, as the API server validates it, and a pod template as the Pod it becomes.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go: `ValidatePodSpec` (`restartPolicy`,
 * `dnsPolicy`, `activeDeadlineSeconds`, `serviceAccountName`, `nodeSelector`, `hostname`, `subdomain`,
 * `priorityClassName`), `ValidateVolumes` (names unique DNS labels, one source each, the source's required name),
 * `validateContainers` / `validateInitContainers` / `validateContainerCommon` (names unique DNS labels across all
 * containers, an image, `validateContainerPorts`, `ValidateEnv`, `ValidateContainerResourceRequirements`,
 * `imagePullPolicy`, `terminationMessagePolicy`), `AccumulateUniqueHostPorts`, `ValidateVolumeMounts` (a mount names
 * a volume, a mount path),
 * `validateProbe` / `validateHandler` (exactly one handler, non-negative timings, a success threshold of 1 for
 * liveness and startup probes, a positive `terminationGracePeriodSeconds`, the handler's port), and
 * `ValidatePodCreate` and `ValidatePodTemplateSpec` (no `ephemeralContainers`: they are added through a running
 * Pod's `ephemeralcontainers` subresource), `validateContainersOnlyForPod` — which the API server runs on a Pod, not on a template: a template is checked here
 * as the Pod it becomes, so a Deployment whose Pods would be refused is refused. Values the API server defaults
 * (v1 `SetDefaults_*`) pass unset. Pure.
 */

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const MOUNT_PROPAGATIONS = ['None', 'HostToContainer', 'Bidirectional'];
const MAX_INT32 = 2 ** 31 - 1;

/** A pod template (`spec.template` of a workload): its labels and its spec, checked as the Pod it becomes. */
export function checkPodTemplate(
  path: FieldPath,
  template: unknown,
  out: Problem[],
  claimVolumes: readonly string[] = [],
): void {
  const t = rec(template);
  if (t === undefined) {
    out.push(required(path, 'a pod template'));
    return;
  }
  const labels = rec(t.metadata)?.labels;
  checkLabelMap(out, [...path, 'metadata'], 'labels', labels);
  checkPodSpec([...path, 'spec'], t.spec, out, { claimVolumes, labels });
}

/**
 * A Pod's spec (`ValidatePodSpec`, with the checks only a Pod gets). `claimVolumes`: the volumes the Pod gets besides
 * its own (a StatefulSet's `volumeClaimTemplates`, which its controller adds to every Pod it makes); `labels` the
 * Pod's (its `matchLabelKeys` take their values).
 */
export function checkPodSpec(path: FieldPath, value: unknown, out: Problem[], of: PodOf = {}): void {
  const spec = rec(value);
  if (spec === undefined) {
    out.push(required(path, 'a pod spec with containers'));
    return;
  }
  const pod = podOf(path, spec, out, of.claimVolumes);
  for (const [c, i] of records(spec.initContainers))
    checkContainer([...path, 'initContainers', i], c, pod, 'init');
  const containers = records(spec.containers);
  if (containers.length === 0) out.push(required([...path, 'containers'], 'at least one container'));
  for (const [c, i] of containers) checkContainer([...path, 'containers', i], c, pod, 'app');
  checkHostPorts(path, spec, out);
  checkNoEphemeral(path, spec.ephemeralContainers, out);
  push(out, notOneOf(path, 'restartPolicy', spec.restartPolicy, RESTART_POLICIES));
  push(out, notOneOf(path, 'dnsPolicy', spec.dnsPolicy, DNS_POLICIES));
  if (spec.dnsPolicy === 'None' && list(rec(spec.dnsConfig)?.nameservers).length === 0)
    out.push(
      required([...path, 'dnsConfig', 'nameservers'], 'a nameserver (dnsPolicy None takes them from here)'),
    );
  const deadline = int(spec.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32))
    out.push(invalid([...path, 'activeDeadlineSeconds'], `a number from 1 to ${MAX_INT32}`, deadline));
  subdomain(out, path, 'serviceAccountName', spec.serviceAccountName);
  subdomain(out, path, 'priorityClassName', spec.priorityClassName);
  label(out, path, 'hostname', spec.hostname);
  label(out, path, 'subdomain', spec.subdomain);
  checkLabelMap(out, path, 'nodeSelector', spec.nodeSelector);
  checkPlacement(path, spec, of.labels, out);
}

/** What a Pod gets besides its spec: claim volumes, and its labels (its `matchLabelKeys` take their values). */
interface PodOf {
  readonly claimVolumes?: readonly string[];
  readonly labels?: unknown;
}

/** Security context, tolerations, affinity and spread constraints: each only when its field is there. */
function checkPlacement(path: FieldPath, spec: Manifest, labels: unknown, out: Problem[]): void {
  checkPodSecurityContext(path, spec, out);
  if (spec.tolerations !== undefined) checkTolerations([...path, 'tolerations'], spec.tolerations, out);
  if (spec.affinity !== undefined) checkAffinity([...path, 'affinity'], spec.affinity, labels, out);
  if (spec.topologySpreadConstraints !== undefined)
    checkTopologySpread([...path, 'topologySpreadConstraints'], spec.topologySpreadConstraints, labels, out);
}

/** What the pod's containers are checked against: its volumes (and claim volumes) and its resource claims' names. */
function podOf(path: FieldPath, spec: Manifest, out: Problem[], claimVolumes: readonly string[] = []): Pod {
  const volumes = checkVolumes([...path, 'volumes'], spec.volumes, out);
  for (const name of claimVolumes) volumes.add(name);
  const claims = new Set<string>();
  for (const [c] of records(spec.resourceClaims)) if (typeof c.name === 'string') claims.add(c.name);
  const grace = int(spec.terminationGracePeriodSeconds) ?? 30;
  return { volumes, claims, initNames: new Set(), out, hostUsers: usesHostUsers(spec), grace };
}

/** `ValidatePodCreate`, `ValidatePodTemplateSpec`: ephemeral containers come later, to a running Pod. */
function checkNoEphemeral(path: FieldPath, value: unknown, out: Problem[]): void {
  const n = list(value).length;
  if (n > 0)
    out.push(
      invalid(
        [...path, 'ephemeralContainers'],
        'no ephemeral containers (kubectl debug adds them to a running Pod; a create or a template takes none)',
        `${n} of them`,
      ),
    );
}

function subdomain(out: Problem[], path: FieldPath, field: string, value: unknown): void {
  const v = set(value);
  const problem = v === undefined ? undefined : subdomainProblem(v);
  if (problem !== undefined) out.push(invalid([...path, field], problem, v));
}

function label(out: Problem[], path: FieldPath, field: string, value: unknown): void {
  const v = set(value);
  const problem = v === undefined ? undefined : checkDns1123Label(v);
  if (problem !== undefined) out.push(invalid([...path, field], problem, v));
}

/** What a container is checked against: the pod's volumes and its init containers' names, and where problems go. */
interface Pod {
  readonly volumes: ReadonlySet<string>;
  /** The names of the pod's `spec.resourceClaims`, which a container's `resources.claims` may name. */
  readonly claims: ReadonlySet<string>;
  readonly initNames: Set<string>;
  readonly out: Problem[];
  /** Whether the pod shares the host's user namespace, and its termination grace period (the defaults applied). */
  readonly hostUsers: boolean;
  readonly grace: number;
}

function checkContainer(path: FieldPath, c: Manifest, pod: Pod, role: 'init' | 'app'): void {
  const { out } = pod;
  checkContainerName(path, c.name, pod, role);
  const image = str(c.image);
  if (image === undefined || image === '') out.push(required([...path, 'image'], 'a container image'));
  else for (const p of checkImage([...path, 'image'], image)) out.push(p);
  push(out, notOneOf(path, 'imagePullPolicy', c.imagePullPolicy, PULL_POLICIES));
  push(out, notOneOf(path, 'terminationMessagePolicy', c.terminationMessagePolicy, MESSAGE_POLICIES));
  checkContainerPorts([...path, 'ports'], c.ports, out);
  const env = records(c.env).map(([e]) => e) as unknown as EnvVar[];
  if (env.length > 0) for (const p of checkEnv([...path, 'env'], env)) out.push(p);
  const resources = rec(c.resources);
  if (resources !== undefined)
    for (const p of checkResources([...path, 'resources'], resourceLists(resources), pod.claims)) out.push(p);
  checkMounts([...path, 'volumeMounts'], c.volumeMounts, pod.volumes, out);
  checkContainerSecurityContext([...path, 'securityContext'], c.securityContext, pod.hostUsers, out);
  checkRestartAndProbes(path, c, role, pod);
}

/** A DNS label; two of one list are list-map duplicates (src/rules/list-maps.ts), an init container's name is taken. */
function checkContainerName(path: FieldPath, value: unknown, pod: Pod, role: 'init' | 'app'): void {
  const name = set(value);
  if (name === undefined) {
    pod.out.push(required([...path, 'name'], 'a container name'));
    return;
  }
  const problem = checkDns1123Label(name);
  if (problem !== undefined) pod.out.push(invalid([...path, 'name'], problem, name));
  else if (role === 'app' && pod.initNames.has(name))
    pod.out.push(invalid([...path, 'name'], 'a name no init container of the pod has', name));
  if (role === 'init') pod.initNames.add(name);
}

/** A container's `restartPolicy` (an init container's Always makes it a sidecar), its probes and hooks. */
function checkRestartAndProbes(path: FieldPath, c: Manifest, role: 'init' | 'app', pod: Pod): void {
  const { out } = pod;
  const sidecar = role === 'init' && c.restartPolicy === 'Always';
  const restart =
    role === 'app'
      ? 'nothing (only an init container, a sidecar, takes one)'
      : 'Always (a sidecar) or nothing';
  if (c.restartPolicy !== undefined && !sidecar)
    out.push(invalid([...path, 'restartPolicy'], restart, c.restartPolicy));
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    if (c[probe] === undefined || c[probe] === null) continue;
    if (role === 'init' && !sidecar)
      out.push(
        invalid([...path, probe], 'no probe on an init container (only a sidecar takes one)', c[probe]),
      );
    else checkProbe([...path, probe], rec(c[probe]) ?? {}, probe, out);
  }
  checkHooks(path, c, role === 'init' && !sidecar, pod);
}

/** `lifecycle`: hooks, which an init container takes only as a sidecar. */
function checkHooks(path: FieldPath, c: Manifest, plainInit: boolean, pod: Pod): void {
  const { out } = pod;
  if (c.lifecycle === undefined || c.lifecycle === null) return;
  if (plainInit)
    out.push(
      invalid(
        [...path, 'lifecycle'],
        'no lifecycle hooks on an init container (only a sidecar takes them)',
        c.lifecycle,
      ),
    );
  else checkLifecycle([...path, 'lifecycle'], c.lifecycle, pod.grace, out);
}

/** The resource lists with only mappings kept, as core/v1 types them. */
function resourceLists(r: Manifest): ResourceRequirements {
  return {
    ...(rec(r.limits) === undefined ? {} : { limits: r.limits }),
    ...(rec(r.requests) === undefined ? {} : { requests: r.requests }),
    ...(Array.isArray(r.claims) ? { claims: records(r.claims).map(([c]) => c) as never } : {}),
  };
}

/** `validateContainerPorts`: a container port, host ports in range, a known protocol, names unique in the container. */
function checkContainerPorts(path: FieldPath, value: unknown, out: Problem[]): void {
  const names = new Set<string>();
  for (const [p, i] of records(value)) {
    const at = [...path, i];
    const name = set(p.name);
    if (name !== undefined) {
      const problem = checkPortName(name);
      if (problem !== undefined) out.push(invalid([...at, 'name'], problem, name));
      else if (names.has(name))
        out.push(invalid([...at, 'name'], 'a port name no other port of the container has', name));
      names.add(name);
    }
    if (p.containerPort === 0 || p.containerPort === undefined)
      out.push(required([...at, 'containerPort'], 'a container port from 1 to 65535'));
    else checkPortNumber(out, at, 'containerPort', p.containerPort);
    if (p.hostPort !== 0) checkPortNumber(out, at, 'hostPort', p.hostPort);
    push(out, notOneOf(at, 'protocol', p.protocol, PROTOCOLS));
  }
}

/** `ValidateVolumeMounts`: a mount names a volume of the pod and has a path (one per path: src/rules/list-maps.ts). */
function checkMounts(path: FieldPath, value: unknown, volumes: ReadonlySet<string>, out: Problem[]): void {
  for (const [m, i] of records(value)) {
    const at = [...path, i];
    const name = set(m.name);
    if (name === undefined) out.push(required([...at, 'name'], 'the name of a volume of the pod'));
    else if (!volumes.has(name))
      out.push(
        invalid(
          [...at, 'name'],
          `the name of a volume of the pod (${[...volumes].join(', ') || 'it has none'})`,
          name,
        ),
      );
    if (set(m.mountPath) === undefined) out.push(required([...at, 'mountPath'], 'a mount path'));
    const sub = str(m.subPath);
    if (sub !== undefined && (sub.startsWith('/') || sub.split('/').includes('..')))
      out.push(invalid([...at, 'subPath'], 'a relative path without ".."', sub));
    push(out, notOneOf(at, 'mountPropagation', m.mountPropagation, MOUNT_PROPAGATIONS));
  }
}

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

/** `validateProbe`: one handler, timings not negative, a success threshold of 1 where it must be. */
function checkProbe(path: FieldPath, probe: Manifest, kind: string, out: Problem[]): void {
  const thresholdOne = kind !== 'readinessProbe';
  checkProbeHandler(path, probe, out);
  for (const field of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ])
    nonNegative(out, path, field, probe[field]);
  const success = int(probe.successThreshold);
  if (thresholdOne && success !== undefined && success !== 0 && success !== 1)
    out.push(invalid([...path, 'successThreshold'], '1 (liveness and startup probes)', success));
  const grace = int(probe.terminationGracePeriodSeconds);
  if (kind === 'readinessProbe' && probe.terminationGracePeriodSeconds !== undefined)
    out.push(
      invalid([...path, 'terminationGracePeriodSeconds'], 'nothing (a readiness probe takes none)', grace),
    );
  else if (grace !== undefined && grace <= 0)
    out.push(invalid([...path, 'terminationGracePeriodSeconds'], 'a number greater than 0', grace));
}

/** A probe's handler: the part hooks share, and its grpc port. */
function checkProbeHandler(path: FieldPath, probe: Manifest, out: Problem[]): void {
  checkHandler(path, probe, HANDLERS, out);
  const grpc = rec(probe.grpc);
  if (grpc === undefined) return;
  if (grpc.port === undefined || grpc.port === 0)
    out.push(required([...path, 'grpc', 'port'], 'a port from 1 to 65535'));
  else checkPortNumber(out, [...path, 'grpc'], 'port', grpc.port);
}
