import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildDockerfileBases } from '../../scripts/image/dockerfile-bases.js';
import { tempDir } from '../support/tmp.js';
import { describeImage, imageConfig, must, readJson, REPO, runInRootfs, sh, unpackImage } from './support.js';

const pkg = readJson(join(REPO, 'package.json'));

/** A file npm is configured to trust (`npm config get cafile`), if any: the build's npm trusts the same. */
function npmCafile(): string | undefined {
  const file = sh('npm', ['config', 'get', 'cafile']).stdout.trim();
  return file !== '' && file !== 'null' && file !== 'undefined' && existsSync(file) ? file : undefined;
}

describeImage('the Dockerfile, built by buildah with local base images as its build arguments', true, () => {
  let tmp: string;
  let rootfs: string;
  let config: any;
  const store = (): string[] => [
    '--root',
    join(tmp, 'storage/root'),
    '--runroot',
    join(tmp, 'storage/run'),
    '--storage-driver',
    'vfs',
  ];

  beforeAll(() => {
    tmp = tempDir('dockerfile-');
    const bases = buildDockerfileBases(REPO, join(tmp, 'bases'));
    const cache = sh('npm', ['config', 'get', 'cache']).stdout.trim();
    const cafile = npmCafile();
    must(
      'buildah',
      [
        ...store(),
        'bud',
        '--isolation',
        'chroot',
        '--pull-never',
        '--build-arg',
        `BUILD_IMAGE=oci-archive:${bases.build.file}`,
        '--build-arg',
        `RUNTIME_IMAGE=oci-archive:${bases.runtime.file}`,
        // npm's cache of this machine (only the build stages see it) and the CAs its npm trusts.
        ...(existsSync(cache) && statSync(cache).isDirectory() ? ['-v', `${cache}:/root/.npm`] : []),
        ...(cafile ? ['-v', `${cafile}:/etc/ssl/certs/ca-certificates.crt:ro`] : []),
        '-t',
        'localhost/specforge-dockerfile:test',
        '-f',
        'Dockerfile',
        '.',
      ],
      { cwd: REPO },
    );
    must('buildah', [
      ...store(),
      'push',
      '--quiet',
      'localhost/specforge-dockerfile:test',
      `oci-archive:${join(tmp, 'image.tar')}:localhost/specforge-dockerfile:test`,
    ]);
    const unpacked = unpackImage(join(tmp, 'image.tar'), join(tmp, 'unpacked'));
    rootfs = unpacked.rootfs;
    config = imageConfig(unpacked.layout);
  }, 900_000);

  afterAll(() => {
    if (tmp === undefined) return;
    sh('buildah', [...store(), 'rm', '--all']);
    sh('buildah', [...store(), 'rmi', '--all', '--force']);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('builds, and its last stage is the shell-less runtime base: no /bin/sh, no npm', () => {
    expect(existsSync(join(rootfs, 'app/lib/cli.js'))).toBe(true);
    expect(existsSync(join(rootfs, 'bin/sh'))).toBe(false);
    expect(existsSync(join(rootfs, 'usr/bin/npm'))).toBe(false);
  });

  it("keeps the Dockerfile's settings: user 65532, node running the CLI, `controller`, port 8080", () => {
    expect(config.config).toMatchObject({
      User: '65532:65532',
      Entrypoint: ['node', '/app/bin/specforge.js'],
      Cmd: ['controller'],
      WorkingDir: '/app',
      ExposedPorts: { '8080/tcp': {} },
    });
    expect(config.config.Env).toEqual(
      expect.arrayContaining(['NODE_ENV=production', 'NODE_OPTIONS=--max-semi-space-size=4']),
    );
  });

  it('runs the CLI chrooted as 65532 on a read-only root: --version and controller --help', () => {
    const version = runInRootfs(
      rootfs,
      config.config.User,
      [...config.config.Entrypoint, '--version'],
      config.config.Env,
    );
    expect(version.stderr).toBe('');
    expect(version.stdout).toBe(`${pkg.version}\n`);
    const help = runInRootfs(
      rootfs,
      config.config.User,
      [...config.config.Entrypoint, 'controller', '--help'],
      config.config.Env,
    );
    expect(help.stdout).toMatch(/^Usage: specforge controller/);
  });
});
