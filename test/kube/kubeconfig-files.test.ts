import { chmodSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCredentials, loadCredentials } from '../../src/kube/credentials.js';
import { KubeClient } from '../../src/kube/client.js';
import { fakeApi, type FakeApi } from '../support/fake-api.js';
import { run, tempDir } from '../support/tmp.js';

const CTX = 'contexts: [{name: c, context: {cluster: k, user: u}}]';
const CLUSTER = 'clusters: [{name: k, cluster: {server: "https://127.0.0.1:6443"}}]';

/** A kubeconfig file with `lines` (current-context c unless the lines set it). */
function file(dir: string, name: string, ...lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n'));
  return path;
}

function standard(user: string, extra: string[] = []): string[] {
  return [
    'apiVersion: v1',
    'kind: Config',
    'current-context: c',
    CTX,
    CLUSTER,
    `users: [{name: u, user: ${user}}]`,
    ...extra,
  ];
}

/** An exec plugin that prints `output`. */
function plugin(dir: string, output: string, exit = 0): string {
  const path = join(dir, 'plugin.sh');
  writeFileSync(path, `#!/bin/sh\ncat <<'EOF'\n${output}\nEOF\nexit ${exit}\n`);
  chmodSync(path, 0o755);
  return path;
}

const EXEC = (command: string) =>
  `{exec: {apiVersion: client.authentication.k8s.io/v1, command: ${JSON.stringify(command)}, interactiveMode: Never}}`;

describe('a kubeconfig specforge cannot use as kubectl would is named in a sentence', () => {
  it.each<[string, string[], RegExp]>([
    [
      'an empty file',
      [''],
      /kubeconfig .*config: expected a kubeconfig with clusters, users, contexts and current-context, found an empty file/,
    ],
    ['only a comment', ['# nothing'], /found an empty file/],
    ['a list', ['- a'], /kubeconfig .*config: expected a kubeconfig: a mapping .*, found a list of 1/],
    ['a scalar', ['5'], /found 5/],
    ['bad YAML', ['clusters: [}'], /expected YAML, found a syntax error/],
    [
      'an alias bomb',
      [
        'a: &a [x, x, x, x, x, x, x, x, x]',
        'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
        'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
        'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      ],
      /kubeconfig .*config: expected YAML with at most 100 alias uses, found .*alias/,
    ],
    [
      'contexts: 5',
      ['current-context: c', 'contexts: 5'],
      /config contexts: expected a list of \{name, context\} entries, found 5/,
    ],
    [
      'a context that is a string',
      ['current-context: c', 'contexts: [x]'],
      /contexts\[0\]: expected a mapping \{name, context\}, found "x"/,
    ],
    [
      'a context without a name',
      ['current-context: c', 'contexts: [{context: {}}]'],
      /contexts\[0\]\.name: expected the context's name, found nothing/,
    ],
    [
      'two contexts of one name',
      ['current-context: c', 'contexts: [{name: c, context: {}}, {name: c, context: {}}]'],
      /contexts\[1\]\.name: expected a name no other context of the file has/,
    ],
    ['a typo at the top', ['current_context: c'], /current_context: expected one of the kubeconfig fields/],
    ['kind: Pod', ['kind: Pod'], /kind: expected "Config", found "Pod"/],
    [
      'no current context',
      [CTX, CLUSTER],
      /current-context: expected the context to use, found nothing\. Pass --context NAME/,
    ],
    [
      'a missing context',
      ['current-context: nope', CTX, CLUSTER],
      /contexts: expected a context named "nope", found only "c"/,
    ],
    [
      'a missing cluster',
      ['current-context: c', CTX],
      /contexts\[0\]\.context\.cluster: expected the name of a cluster listed under clusters, found "k", which no kubeconfig file lists/,
    ],
    [
      'a missing user',
      ['current-context: c', CTX, CLUSTER],
      /contexts\[0\]\.context\.user: expected the name of a user listed under users, found "u"/,
    ],
    [
      'a cluster without server',
      ['current-context: c', CTX, 'clusters: [{name: k, cluster: {}}]', 'users: [{name: u, user: {}}]'],
      /clusters\[0\]\.cluster\.server: expected the API server's URL, found nothing/,
    ],
    [
      'a server that is no URL',
      [
        'current-context: c',
        CTX,
        'clusters: [{name: k, cluster: {server: "localhost"}}]',
        'users: [{name: u}]',
      ],
      /server: expected an https:\/\/ \(or http:\/\/\) URL/,
    ],
    [
      'proxy-url',
      [
        'current-context: c',
        CTX,
        'clusters: [{name: k, cluster: {server: "https://a", proxy-url: "http://127.0.0.1:3128"}}]',
        'users: [{name: u}]',
      ],
      /clusters\[0\]\.cluster\.proxy-url: expected no proxy-url: specforge connects to the API server directly/,
    ],
    [
      'an unknown cluster field',
      [
        'current-context: c',
        CTX,
        'clusters: [{name: k, cluster: {server: "https://a", sever: x}}]',
        'users: [{name: u}]',
      ],
      /clusters\[0\]\.cluster\.sever: expected one of server/,
    ],
    [
      'auth-provider',
      standard('{auth-provider: {name: oidc}}'),
      /users\[0\]\.user\.auth-provider: expected no auth-provider/,
    ],
    [
      'groups without a user to impersonate',
      standard('{token: t, as-groups: [admins]}'),
      /users\[0\]\.user\.as: expected the user to impersonate/,
    ],
    [
      'as-user-extra not a map of lists',
      standard('{token: t, as: bob, as-user-extra: {scopes: x}}'),
      /as-user-extra: expected a mapping of keys to lists of strings/,
    ],
    [
      'token and basic auth',
      standard('{token: t, username: a, password: b}'),
      /expected one authentication method, found token and username\/password/,
    ],
    [
      'a certificate without key',
      standard('{client-certificate-data: Q0VSVA==}'),
      /client-key: expected a client certificate and its key, both/,
    ],
    [
      'a CA file that is missing',
      [
        'current-context: c',
        CTX,
        'clusters: [{name: k, cluster: {server: "https://a", certificate-authority: nope.crt}}]',
        'users: [{name: u}]',
      ],
      /certificate-authority: expected a readable file, found "nope.crt" \(ENOENT\)/,
    ],
    [
      'insecure with a CA',
      [
        'current-context: c',
        CTX,
        'clusters: [{name: k, cluster: {server: "https://a", insecure-skip-tls-verify: true, certificate-authority-data: Q0E=}}]',
        'users: [{name: u}]',
      ],
      /insecure-skip-tls-verify: expected not both/,
    ],
    [
      'a token that is a number',
      standard('{token: 5}'),
      /users\[0\]\.user\.token: expected a string, found 5/,
    ],
    [
      'an exec plugin without apiVersion',
      standard('{exec: {command: x}}'),
      /exec\.apiVersion: expected one of client\.authentication\.k8s\.io\/v1/,
    ],
    [
      'an exec plugin v1 without interactiveMode',
      standard('{exec: {command: x, apiVersion: client.authentication.k8s.io/v1}}'),
      /interactiveMode: expected Never or IfAvailable.*requires it/,
    ],
    [
      'an interactive exec plugin',
      standard('{exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Always}}'),
      /interactiveMode: expected Never or IfAvailable: specforge runs the plugin without a terminal, found "Always"/,
    ],
    [
      'an exec plugin that is not there',
      standard(EXEC('specforge-no-such-plugin')),
      /exec\.command: expected a plugin that prints an ExecCredential, found no command "specforge-no-such-plugin" on the PATH/,
    ],
  ])('%s', async (_what, lines, message) => {
    const d = tempDir('specforge-kc-');
    const path = file(d, 'config', ...lines);
    const err = await fileCredentials(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('KubeconfigError');
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toContain(path.startsWith(d) ? d : path);
  });

  it.each<[string, string, RegExp]>([
    [
      '{}',
      '{}',
      /expected the plugin to print an ExecCredential .* found \{\}, an empty mapping\. Run the plugin by hand/,
    ],
    ['not JSON', 'token', /found output that is not JSON: "token"/],
    ['nothing', '', /found no output/],
    [
      'no token',
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}}',
      /found status an empty mapping with neither/,
    ],
    [
      'another version',
      '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}}',
      /found apiVersion "client\.authentication\.k8s\.io\/v1beta1"/,
    ],
    [
      'a key without certificate',
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientKeyData":"k"}}',
      /a key without its certificate/,
    ],
    [
      'a bad expiry',
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"soon"}}',
      /expirationTimestamp "soon", not an RFC 3339 time/,
    ],
  ])('an exec plugin that prints %s', async (_what, output, message) => {
    const d = tempDir('specforge-kc-');
    const path = file(d, 'config', ...standard(EXEC(plugin(d, output))));
    await expect(fileCredentials(path)).rejects.toThrow(message);
  });

  it('an exec plugin that fails, with its first line of stderr and install hint', async () => {
    const d = tempDir('specforge-kc-');
    const script = join(d, 'fail.sh');
    writeFileSync(script, '#!/bin/sh\necho "token expired, log in" >&2\nexit 3\n');
    chmodSync(script, 0o755);
    const user = `{exec: {apiVersion: client.authentication.k8s.io/v1, command: ${script}, interactiveMode: Never, installHint: "run mylogin"}}`;
    await expect(fileCredentials(file(d, 'config', ...standard(user)))).rejects.toThrow(
      /found exit code 3: token expired, log in\. run mylogin/,
    );
  });

  it('is a sentence on the command line, exit 1, no stack trace', async () => {
    const d = tempDir('specforge-kc-');
    const path = file(d, 'config', 'contexts: 5');
    const r = await run(['import', '--chart', join(d, 'c'), '-A', '--kubeconfig', path]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^specforge: kubeconfig .*config contexts: expected a list of \{name, context\} entries, found 5\.$/,
    );
    expect(r.err).not.toMatch(/TypeError|\n\s+at /);
  });
});

describe('kubeconfig features behave as in kubectl', () => {
  let api: FakeApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('merges every KUBECONFIG file: the first wins each name, the current context from the first that sets one', async () => {
    const d = tempDir('specforge-kc-');
    const a = file(
      d,
      'a',
      'contexts: [{name: c, context: {cluster: k, user: u}}]',
      'users: [{name: u, user: {token: first}}]',
    );
    const b = file(
      d,
      'b',
      'current-context: c',
      'contexts: [{name: c, context: {cluster: k, user: v}}, {name: other, context: {cluster: k, user: v}}]',
      'clusters: [{name: k, cluster: {server: "https://10.0.0.2:6443"}}]',
      'users: [{name: u, user: {token: second}}, {name: v, user: {token: v}}]',
    );
    const env = { KUBECONFIG: [join(d, 'missing'), a, b].join(delimiter) };
    const c = await loadCredentials(undefined, env);
    expect(c.server).toBe('https://10.0.0.2:6443');
    expect(await c.headers()).toEqual({ Authorization: 'Bearer first' });
    // --context reads every file too, not only the first.
    expect(await (await loadCredentials(undefined, env, 'other')).headers()).toEqual({
      Authorization: 'Bearer v',
    });
  });

  it('sends the impersonation headers with every request', async () => {
    api = await fakeApi([], []);
    const d = tempDir('specforge-kc-');
    const path = file(
      d,
      'config',
      'current-context: c',
      CTX,
      `clusters: [{name: k, cluster: {server: "${api.url}"}}]`,
      'users: [{name: u, user: {token: t, as: bob, as-uid: "42", as-groups: [devs, ops], as-user-extra: {"scopes.example/x y": [a, b]}}}]',
    );
    const client = await KubeClient.fromCredentials(await loadCredentials(path));
    await client.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    client.close();
    const sent = api.requests[0];
    const lines = (name: string) =>
      (sent?.rawHeaders ?? []).flatMap((v, i, all) => (i % 2 === 1 && all[i - 1] === name ? [v] : []));
    expect(lines('Impersonate-Group')).toEqual(['devs', 'ops']);
    expect(lines('Impersonate-Extra-scopes.example%2Fx%20y')).toEqual(['a', 'b']);
    expect(sent?.headers).toMatchObject({
      authorization: 'Bearer t',
      'impersonate-user': 'bob',
      'impersonate-uid': '42',
      'impersonate-group': 'devs, ops',
    });
  });

  it('sends the groups as separate header lines, as the API server reads them', async () => {
    const d = tempDir('specforge-kc-');
    const c = await fileCredentials(
      file(d, 'config', ...standard('{token: t, as: bob, as-groups: [devs, ops]}')),
    );
    expect((await c.headers())['Impersonate-Group']).toEqual(['devs', 'ops']);
  });

  it('uses the token an exec plugin prints, with --context as without it, on the command line', async () => {
    api = await fakeApi([], []);
    const d = tempDir('specforge-kc-');
    const script = plugin(
      d,
      '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}',
    );
    const path = file(
      d,
      'config',
      'current-context: other',
      CTX,
      `clusters: [{name: k, cluster: {server: "${api.url}"}}]`,
      `users: [{name: u, user: ${EXEC(script)}}]`,
    );
    writeFileSync(
      path,
      [
        'current-context: other',
        'contexts: [{name: c, context: {cluster: k, user: u}}, {name: other, context: {cluster: k}}]',
        `clusters: [{name: k, cluster: {server: "${api.url}"}}]`,
        `users: [{name: u, user: ${EXEC(script)}}]`,
      ].join('\n'),
    );
    const r = await run([
      'import',
      '--chart',
      join(d, 'chart'),
      '-A',
      '--kubeconfig',
      path,
      '--context',
      'c',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(api.requests[0]?.headers.authorization).toBe('Bearer from-plugin');
  });

  it('prefers a token file to a token, as client-go does', async () => {
    const d = tempDir('specforge-kc-');
    writeFileSync(join(d, 'tok'), 'from-file\n');
    const c = await fileCredentials(file(d, 'config', ...standard('{token: inline, tokenFile: tok}')));
    expect(await c.headers()).toEqual({ Authorization: 'Bearer from-file' });
  });

  it('honours tls-server-name and accepts disable-compression and a context namespace', async () => {
    const d = tempDir('specforge-kc-');
    const c = await fileCredentials(
      file(
        d,
        'config',
        'current-context: c',
        'contexts: [{name: c, context: {cluster: k, user: u, namespace: team-a}}]',
        'clusters: [{name: k, cluster: {server: "https://10.0.0.1", tls-server-name: api.internal, disable-compression: true}}]',
        'users: [{name: u, user: {token: t}}]',
      ),
    );
    expect(c.tls.servername).toBe('api.internal');
  });
});
