/** The command line of `specforge import`: its usage text and its flags, checked before anything is read. */
import { parseArgs } from 'node:util';
import { namespaceValue, nonEmptyValue } from '../../util/flag-values.js';
import { UsageError } from '../../util/usage-error.js';
import { CONNECTION_OPTIONS, connectionFlags, type ConnectionFlags } from '../flags.js';

export const IMPORT_USAGE = `Usage: specforge import --chart DIR (-n NAMESPACE ... | --all-namespaces)
                       [--kubeconfig FILE] [--context NAME] [--format text|json] [--force]

Reads the seed operators' custom resources (AppService, Myapp, Podroute, NodePool) from the cluster, read-only,
and writes one spec file per resource into the chart DIR, with the adoption pins that take the objects the
operator made over as they are. Reports what adoption does with each object, where the live objects differ from
their resource's spec, and the Nodes whose NodePool membership the old and the new rule disagree on.

Each file is named <kind>_<group>_<namespace>_<name>.yaml and starts with a line recording what import wrote. A
re-import replaces a file only while it is unchanged since: a file the team edited, one import did not write, or a
link is named and nothing is written (exit 1), unless --force. Import never deletes a file and never follows a link.
  --chart DIR             the chart to write the spec files into
  -n, --namespace NS      read the resources of NS (repeatable; an empty name is a usage error)
  -A, --all-namespaces    read the resources of every namespace
  --kubeconfig FILE       the kubeconfig (default: as kubectl finds it: KUBECONFIG, ~/.kube/config, in-cluster)
  --context NAME          the kubeconfig's context to use (default: its current-context)
  --format text|json      the report for a person or a program (default: text)
  --force                 replace files the team edited since import wrote them

A resource import cannot take (its spec file would not render) is named on stderr and left out; the others are
imported. The resource's own annotations are not copied into its spec (the operators never put them on their objects).

An object that restarts, rescales, is replaced, blocked or left out makes the exit code 1, as does an error in the
chart itself (then nothing is written).

Exit codes: 0 every object adoptable, no pod restarted or rescaled; 1 otherwise; 2 usage error.`;

/** The flags of one run. */
export interface ImportArgs extends ConnectionFlags {
  readonly chart: string;
  readonly namespaces: string[] | 'all';
  readonly format: 'text' | 'json';
  readonly force: boolean;
}

/** The flags after `import`; a {@link UsageError} for a wrong one. */
export function parseImportArgs(args: readonly string[]): ImportArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      chart: { type: 'string' },
      namespace: { type: 'string', short: 'n', multiple: true },
      'all-namespaces': { type: 'boolean', short: 'A' },
      ...CONNECTION_OPTIONS,
      format: { type: 'string' },
      force: { type: 'boolean' },
    },
  });
  if (positionals.length > 0)
    throw new UsageError(`import takes no positional argument, got ${JSON.stringify(positionals[0])}`);
  if (values.chart === undefined)
    throw new UsageError('import needs --chart DIR (the chart to write the spec files into)');
  const all = values['all-namespaces'] === true;
  const ns = [...new Set((values.namespace ?? []).map((n) => namespaceValue('-n', n)))];
  if (all === ns.length > 0)
    throw new UsageError('import needs either -n NAMESPACE (repeatable) or --all-namespaces');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format takes text or json, got ${JSON.stringify(format)}`);
  return {
    chart: nonEmptyValue('--chart', values.chart, 'the chart directory to write the spec files into'),
    namespaces: all ? 'all' : ns,
    format,
    force: values.force === true,
    ...connectionFlags(values),
  };
}
