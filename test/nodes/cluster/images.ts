/**
 * The node suites' test images, made from static Go programs without a registry: `registry.k8s.io/pause:3.6` (the
 * pod sandbox) and the workload server under each name the test specs use, its listening ports set per name (as an
 * nginx image knows it serves on 80).
 */
import { mkdirSync, writeFileSync, copyFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { writeImageArchive } from '../../../scripts/image/oci-archive.js';

export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.6';

export interface TestImage {
  readonly ref: string;
  readonly archive: string;
}

function rootfs(dir: string, binary: string, name: string): string {
  const root = join(dir, 'rootfs');
  mkdirSync(join(root, 'bin'), { recursive: true });
  mkdirSync(join(root, 'etc'), { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  copyFileSync(binary, join(root, 'bin', name));
  chmodSync(join(root, 'bin', name), 0o755);
  writeFileSync(
    join(root, 'etc', 'passwd'),
    'root:x:0:0:root:/:/bin/false\nnonroot:x:65532:65532:nonroot:/:/bin/false\n',
  );
  writeFileSync(join(root, 'etc', 'group'), 'root:x:0:\nnonroot:x:65532:\n');
  return root;
}

/** The pause image, and the workload under each name given, with its ports and user. */
export function buildTestImages(
  dir: string,
  bins: { readonly pause: string; readonly workload: string },
  workloads: Readonly<Record<string, { readonly ports: string; readonly user?: string }>>,
): TestImage[] {
  const pauseRoot = rootfs(join(dir, 'pause'), bins.pause, 'pause');
  const workRoot = rootfs(join(dir, 'workload'), bins.workload, 'workload');
  const images: TestImage[] = [];
  const pauseArchive = join(dir, 'pause.tar');
  writeImageArchive(
    { ref: PAUSE_IMAGE, layers: [pauseRoot], config: { Entrypoint: ['/bin/pause'] }, created: 0 },
    pauseArchive,
  );
  images.push({ ref: PAUSE_IMAGE, archive: pauseArchive });
  let i = 0;
  for (const [ref, { ports, user }] of Object.entries(workloads)) {
    const archive = join(dir, `workload-${i++}.tar`);
    const config = {
      Entrypoint: ['/bin/workload'],
      Env: ['PATH=/bin', `PORTS=${ports}`],
      ...(user ? { User: user } : {}),
    };
    writeImageArchive({ ref, layers: [workRoot], config, created: 0 }, archive);
    images.push({ ref, archive });
  }
  return images;
}
