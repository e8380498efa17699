import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_CONTROLLER_IMAGE } from '../../src/constructs/controller-bundle.js';
import { tempDir } from '../support/tmp.js';
import {
  containerdDir,
  describeImage,
  imageConfig,
  startContainerd,
  must,
  readJson,
  REPO,
  runInRootfs,
  sh,
  unpackImage,
} from './support.js';

const pkg = readJson(join(REPO, 'package.json'));
const fileDigest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describeImage("npm run image: specforge's image, built without Docker or a registry", true, () => {
  let tmp: { path: string };
  let first: ReturnType<typeof sh>;
  let second: ReturnType<typeof sh>;
  let layout: string;
  let rootfs: string;
  let config: any;

  beforeAll(() => {
    tmp = { path: tempDir('image-') };
    first = sh('npm', ['run', '--silent', 'image', '--', '--out', join(tmp.path, 'a.tar')], { cwd: REPO });
    if (first.status !== 0) throw new Error(`npm run image failed: ${first.stderr}`);
    second = sh('npm', ['run', '--silent', 'image', '--', '--out', join(tmp.path, 'b.tar')], { cwd: REPO });
    ({ layout, rootfs } = unpackImage(join(tmp.path, 'a.tar'), join(tmp.path, 'a')));
    config = imageConfig(layout);
  }, 600_000);
  afterAll(() => tmp && rmSync(tmp.path, { recursive: true, force: true }));

  it('prints the archive, its digest and its size', () => {
    expect(first.stdout).toContain(join(tmp.path, 'a.tar'));
    expect(first.stdout).toMatch(/digest {2}sha256:[0-9a-f]{64}\n/);
    expect(first.stdout).toMatch(/size {4}\d+\.\d MB \(\d+ bytes\)/);
  });

  it('gives the same digest, and the same bytes, when built twice from one commit', () => {
    const digest = (out: string): string | undefined => /digest {2}(sha256:[0-9a-f]{64})/.exec(out)?.[1];
    expect(second.status).toBe(0);
    expect(digest(second.stdout)).toBe(digest(first.stdout));
    expect(fileDigest(join(tmp.path, 'b.tar'))).toBe(fileDigest(join(tmp.path, 'a.tar')));
  });

  it('is an OCI layout and a docker-archive of one image named DEFAULT_CONTROLLER_IMAGE', () => {
    expect(readJson(join(layout, 'oci-layout'))).toEqual({ imageLayoutVersion: '1.0.0' });
    const index = readJson(join(layout, 'index.json'));
    expect(index.manifests).toHaveLength(1);
    expect(index.manifests[0].annotations).toEqual({
      'io.containerd.image.name': DEFAULT_CONTROLLER_IMAGE,
      'org.opencontainers.image.ref.name': DEFAULT_CONTROLLER_IMAGE,
    });
    expect(DEFAULT_CONTROLLER_IMAGE).toBe(`ghcr.io/specforge/specforge:${pkg.version}`);
    const manifest = readJson(join(layout, 'blobs/sha256', index.manifests[0].digest.slice(7)));
    const docker = readJson(join(layout, 'manifest.json'));
    expect(docker).toEqual([
      {
        Config: `blobs/sha256/${manifest.config.digest.slice(7)}`,
        RepoTags: [DEFAULT_CONTROLLER_IMAGE],
        Layers: manifest.layers.map((l: { digest: string }) => `blobs/sha256/${l.digest.slice(7)}`),
      },
    ]);
    expect(manifest.layers).toHaveLength(3);
    for (const blob of readdirSync(join(layout, 'blobs/sha256')))
      expect(fileDigest(join(layout, 'blobs/sha256', blob))).toBe(blob);
    expect(config.rootfs.diff_ids).toEqual(manifest.layers.map((l: { digest: string }) => l.digest));
  });

  it("has the Dockerfile's settings: user 65532, node running the CLI, `controller`, /app, port 8080", () => {
    expect(config.os).toBe('linux');
    expect(config.config).toMatchObject({
      User: '65532:65532',
      Entrypoint: ['/usr/bin/node', '/app/bin/specforge.js'],
      Cmd: ['controller'],
      WorkingDir: '/app',
      ExposedPorts: { '8080/tcp': {} },
    });
    expect(config.config.Env).toEqual(
      expect.arrayContaining(['NODE_ENV=production', 'NODE_OPTIONS=--max-semi-space-size=4']),
    );
    const passwd = readFileSync(join(rootfs, 'etc/passwd'), 'utf8');
    expect(passwd).toMatch(/^nonroot:x:65532:65532:/m);
    expect(readFileSync(join(rootfs, 'etc/group'), 'utf8')).toMatch(/^nonroot:x:65532:$/m);
  });

  it('says what it holds: version, commit, source, Debian package and Node versions, and status.d records', () => {
    const labels = config.config.Labels;
    const head = must('git', ['-C', REPO, 'rev-parse', 'HEAD']).trim();
    expect(labels['org.opencontainers.image.version']).toBe(pkg.version);
    expect(labels['org.opencontainers.image.revision']).toMatch(new RegExp(`^${head}(-dirty)?$`));
    expect(labels['org.opencontainers.image.source']).toBe('https://github.com/specforge/specforge');
    expect(labels['dev.specforge.image.node']).toBe(
      readJson(join(REPO, 'package-lock.json')).packages['node_modules/node'].version,
    );
    const packages: string[] = labels['dev.specforge.image.debian-packages'].split(' ');
    expect(packages.map((p) => p.split('=')[0])).toEqual([
      'ca-certificates',
      'libc6',
      'libgcc-s1',
      'libstdc++6',
      'tzdata',
    ]);
    for (const p of packages) {
      const [name, version] = p.split('=');
      expect(readFileSync(join(rootfs, 'var/lib/dpkg/status.d', name ?? ''), 'utf8')).toContain(
        `\nVersion: ${version}\n`,
      );
    }
    expect(config.created).toBe(labels['org.opencontainers.image.created']);
  });

  it('holds no shell, no package manager and no coreutils: /usr/bin has node alone', () => {
    for (const p of [
      'bin/sh',
      'bin/bash',
      'bin/dash',
      'usr/bin/dpkg',
      'usr/bin/apt',
      'usr/bin/apt-get',
      'bin/ls',
      'usr/bin/env',
    ])
      expect(existsSync(join(rootfs, p)), p).toBe(false);
    expect(readdirSync(join(rootfs, 'usr/bin'))).toEqual(['node']);
    expect(existsSync(join(rootfs, 'usr/sbin'))).toBe(false);
  });

  it('has the CA bundle update-ca-certificates writes: every certificate of the package, in order, once', () => {
    const bundle = readFileSync(join(rootfs, 'etc/ssl/certs/ca-certificates.crt'), 'utf8');
    const dir = join(rootfs, 'usr/share/ca-certificates/mozilla');
    const certs = readdirSync(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(certs.length).toBeGreaterThan(100);
    expect(bundle.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(certs.length);
    expect(bundle.startsWith(readFileSync(join(dir, certs[0] ?? ''), 'utf8'))).toBe(true);
    expect(bundle.endsWith('-----END CERTIFICATE-----\n')).toBe(true);
  });

  it('is owned by root throughout: no file or directory is writable by 65532', () => {
    const writable: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const st = lstatSync(join(dir, name));
        if (st.isSymbolicLink()) continue;
        if (st.uid !== 0 || st.gid !== 0 || (st.mode & 0o022) !== 0) writable.push(join(dir, name));
        if (st.isDirectory()) walk(join(dir, name));
      }
    };
    walk(rootfs);
    expect(writable).toEqual([]);
  });

  it("runs the CLI with the image's own Node and libraries, as 65532, on a read-only root: --version", () => {
    const r = runInRootfs(
      rootfs,
      '65532:65532',
      [...config.config.Entrypoint, '--version'],
      config.config.Env,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(r.status).toBe(0);
  });

  it('runs `specforge controller --help` there too', () => {
    const r = runInRootfs(
      rootfs,
      '65532:65532',
      [...config.config.Entrypoint, 'controller', '--help'],
      config.config.Env,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: specforge controller/);
  });

  it('cannot write its root filesystem there (read-only, as the Deployment mounts it), and runs as 65532', () => {
    const js =
      "try { require('fs').writeFileSync('/app/x', ''); } catch (e) { console.log(e.code, process.getuid()); }";
    const r = runInRootfs(rootfs, '65532:65532', ['/usr/bin/node', '-e', js], config.config.Env);
    expect(r.stdout).toBe('EROFS 65532\n');
  });

  it('is read by buildah (containers/image, as skopeo and podman) as an oci-archive and as a docker-archive', () => {
    const store = join(tmp.path, 'storage');
    const buildah = (...args: string[]) =>
      must('buildah', [
        '--root',
        join(store, 'root'),
        '--runroot',
        join(store, 'run'),
        '--storage-driver',
        'vfs',
        ...args,
      ]);
    try {
      for (const transport of ['oci-archive', 'docker-archive']) {
        const id = buildah('pull', '--quiet', `${transport}:${join(tmp.path, 'a.tar')}`).trim();
        expect(id).toBe(imageConfigId(layout));
      }
      const inspected = JSON.parse(buildah('inspect', '--type', 'image', DEFAULT_CONTROLLER_IMAGE));
      expect(inspected.OCIv1.config.User).toBe('65532:65532');
    } finally {
      sh('buildah', [
        '--root',
        join(store, 'root'),
        '--runroot',
        join(store, 'run'),
        '--storage-driver',
        'vfs',
        'rm',
        '--all',
      ]);
      sh('buildah', [
        '--root',
        join(store, 'root'),
        '--runroot',
        join(store, 'run'),
        '--storage-driver',
        'vfs',
        'rmi',
        '--all',
        '--force',
      ]);
    }
  });

  it('is imported by containerd under its name, as `kind load image-archive` and `ctr images import` do', async () => {
    const bin = containerdDir();
    if (bin === undefined) {
      console.warn('skipped the containerd import: no containerd (bash scripts/build-nodes.sh builds it)');
      return;
    }
    const dir = join(tmp.path, 'containerd');
    mkdirSync(dir);
    const containerd = await startContainerd(bin, dir);
    try {
      containerd.ctr('-n', 'k8s.io', 'images', 'import', '--all-platforms', join(tmp.path, 'a.tar'));
      const listed = containerd.ctr('-n', 'k8s.io', 'images', 'ls', '--quiet');
      expect(listed.split('\n')).toContain(DEFAULT_CONTROLLER_IMAGE);
      const digest = /digest {2}(sha256:[0-9a-f]{64})/.exec(first.stdout)?.[1];
      expect(containerd.ctr('-n', 'k8s.io', 'images', 'ls')).toContain(`${DEFAULT_CONTROLLER_IMAGE} `);
      expect(containerd.ctr('-n', 'k8s.io', 'images', 'ls')).toContain(` ${digest} `);
    } finally {
      await containerd.stop();
    }
  }, 60_000);
});

/** The image ID buildah gives an image: its config's digest, without `sha256:`. */
function imageConfigId(layout: string): string {
  const index = readJson(join(layout, 'index.json'));
  return readJson(join(layout, 'blobs/sha256', index.manifests[0].digest.slice(7))).config.digest.slice(7);
}

describeImage('npm run image: failures are a sentence and an exit code', false, () => {
  let tmp: { path: string };
  beforeAll(() => {
    tmp = { path: tempDir('image-fail-') };
  });
  afterAll(() => tmp && rmSync(tmp.path, { recursive: true, force: true }));
  const tsx = join(REPO, 'node_modules/tsx/dist/cli.mjs');

  it('says apt-get is missing in one sentence and exits 1 (no stack trace)', () => {
    const bin = join(tmp.path, 'bin');
    mkdirSync(bin);
    for (const cmd of ['git', 'npm', 'dpkg', 'dpkg-deb'])
      symlinkSync(must('sh', ['-c', `command -v ${cmd}`]).trim(), join(bin, cmd));
    const r = sh(process.execPath, [tsx, 'scripts/image/main.ts', '--out', join(tmp.path, 'x.tar')], {
      cwd: REPO,
      env: { ...process.env, PATH: bin },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^image: apt-get is not installed: .*Debian/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(tmp.path, 'x.tar'))).toBe(false);
  }, 120_000);

  it("says so in one sentence when apt-get cannot reach Debian's mirrors, exit 1", () => {
    const conf = join(tmp.path, 'apt.conf');
    writeFileSync(
      conf,
      'Acquire::http::Proxy "http://127.0.0.1:9";\nAcquire::https::Proxy "http://127.0.0.1:9";\nAcquire::Retries "0";\n',
    );
    const r = sh(process.execPath, [tsx, 'scripts/image/main.ts', '--out', join(tmp.path, 'x.tar')], {
      cwd: REPO,
      env: { ...process.env, APT_CONFIG: conf, XDG_CACHE_HOME: join(tmp.path, 'empty-cache') },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /^image: apt-get download .*\(no network, or apt's lists are stale: apt-get update\) failed: E: Failed to fetch .*127\.0\.0\.1/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('says so in one sentence when npm cannot reach the registry, exit 1', () => {
    const r = sh(process.execPath, [tsx, 'scripts/image/main.ts', '--out', join(tmp.path, 'x.tar')], {
      cwd: REPO,
      env: {
        ...process.env,
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_fetch_retries: '0',
        npm_config_cache: join(tmp.path, 'empty-npm-cache'),
      },
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /^image: npm ci --omit=dev .* failed: npm error .*127\.0\.0\.1.*ECONNREFUSED/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(tmp.path, 'x.tar'))).toBe(false);
  }, 120_000);

  it('refuses an unknown option as a usage error, exit 2', () => {
    const r = sh(process.execPath, [tsx, 'scripts/image/main.ts', '--push'], { cwd: REPO });
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^image: Unknown option '--push'/);
  }, 120_000);
});
