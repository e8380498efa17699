import type { FieldPath } from './field-path.js';
import { checkDns1123Label } from './k8s-names.js';
import type { Problem } from './problem.js';
import { invalid, rec, records, required, set } from './validation-kit.js';

/**
 * A pod's volumes, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `ValidateVolumes`: names unique DNS
 * labels, one source each (none at all is defaulted to an emptyDir), the source's required name. Pure.
 */

/** The volume sources of core/v1 `VolumeSource`: a volume has one (none at all is defaulted to an emptyDir). */
const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];
/** The name each source with one must carry. */
const SOURCE_NAMES: Readonly<Record<string, string>> = {
  configMap: 'name',
  secret: 'secretName',
  persistentVolumeClaim: 'claimName',
  hostPath: 'path',
};

/** The volumes (`ValidateVolumes`); returns the names a mount may use. */
export function checkVolumes(path: FieldPath, value: unknown, out: Problem[]): Set<string> {
  const names = new Set<string>();
  for (const [v, i] of records(value)) {
    const at = [...path, i];
    const name = set(v.name);
    if (name === undefined) out.push(required([...at, 'name'], 'a volume name'));
    else {
      const problem = checkDns1123Label(name);
      if (problem !== undefined) out.push(invalid([...at, 'name'], problem, name));
      else if (names.has(name)) out.push(invalid([...at, 'name'], 'a name no other volume has', name));
      names.add(name);
    }
    const sources = VOLUME_SOURCES.filter((s) => v[s] !== undefined && v[s] !== null);
    if (sources.length > 1)
      out.push(invalid(at, 'one volume source', `${sources.length}: ${sources.join(', ')}`));
    for (const source of sources) {
      const field = SOURCE_NAMES[source];
      if (field !== undefined && set(rec(v[source])?.[field]) === undefined)
        out.push(required([...at, source, field], `the ${field} of the ${source} volume`));
    }
  }
  return names;
}
