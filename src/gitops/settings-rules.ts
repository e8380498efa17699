import type { Problem } from '../rules/problem.js';
import { describeValue } from '../rules/problem.js';
import { isDnsSubdomain } from '../rules/name-rules.js';

/**
 * What of `charts/gitops.yaml` the rules read: a part of `GitopsSettings` (src/gitops/settings.ts), declared here so
 * the rules import nothing of the file that parses with them.
 */
interface RuledSettings {
  readonly argocd?: { readonly path?: string; readonly project?: string; readonly server?: string };
  readonly flux?: { readonly path?: string; readonly sourceRef?: { readonly name: string } };
  readonly exclude?: readonly string[];
}

/**
 * The rules of `charts/gitops.yaml` its JSON Schema cannot say: every setting that reaches a generated object is
 * checked by the rule of the field it lands in, so what the render writes, Argo CD and Flux take. Pure.
 * - a path (`argocd.path`, `flux.path`) stays inside the repository: relative, no `..` segment (Argo CD refuses a
 *   path out of the repository only at sync time; Flux clamps it to the source's root, silently reading another
 *   directory);
 * - `argocd.project` names an AppProject and `flux.sourceRef.name` a Flux source, custom resources: DNS subdomains;
 * - `argocd.server` is the URL of a cluster API (`https://…`), what Argo CD matches its clusters by;
 * - `exclude` names each chart once.
 */
export function settingsProblems(s: RuledSettings): Problem[] {
  return [
    ...(s.argocd === undefined ? [] : argocdProblems(s.argocd)),
    ...(s.flux?.path === undefined ? [] : pathProblems(['flux', 'path'], s.flux.path)),
    ...subdomainProblems(['flux', 'sourceRef', 'name'], 'the name of a Flux source', s.flux?.sourceRef?.name),
    ...(s.exclude ?? []).flatMap((chart, i, all) =>
      all.indexOf(chart) === i
        ? []
        : [
            {
              path: ['exclude', i],
              expected: 'each chart once',
              found: `${JSON.stringify(chart)} again (also exclude[${all.indexOf(chart)}])`,
            },
          ],
    ),
  ];
}

function argocdProblems(a: NonNullable<RuledSettings['argocd']>): Problem[] {
  const out: Problem[] = [];
  if (a.path !== undefined) out.push(...pathProblems(['argocd', 'path'], a.path));
  out.push(...subdomainProblems(['argocd', 'project'], 'the name of an Argo CD AppProject', a.project));
  if (a.server !== undefined && !isClusterUrl(a.server))
    out.push({
      path: ['argocd', 'server'],
      expected: 'the URL of the destination cluster API, such as https://kubernetes.default.svc',
      found: describeValue(a.server),
    });
  return out;
}

/** The name of a custom resource (an AppProject, a Flux source): a DNS subdomain. */
function subdomainProblems(at: readonly string[], what: string, value: string | undefined): Problem[] {
  if (value === undefined || isDnsSubdomain(value)) return [];
  return [
    {
      path: [...at],
      expected: `${what}, a custom resource: a DNS subdomain (RFC 1123), at most 253 characters of a-z, 0-9, "-" and "."`,
      found: describeValue(value),
    },
  ];
}

/** A path inside the repository: relative, and no `..` segment. */
function pathProblems(at: readonly string[], path: string): Problem[] {
  const segments = path.split('/');
  if (!path.startsWith('/') && !segments.includes('..')) return [];
  return [
    {
      path: [...at],
      expected: 'a directory inside the repository: a relative path with no ".." segment (e.g. dist)',
      found: describeValue(path),
      hint: 'GitOps tools read only the repository: write where dist/ is from the repository root.',
    },
  ];
}

function isClusterUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
