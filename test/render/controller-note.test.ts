import { describe, expect, it } from 'vitest';
import { controllerNotes } from '../../src/render/controller-note.js';
import { run, tempDir, writeFiles } from '../support/tmp.js';

const POOL = `apiVersion: nodes.specforge.dev/v1
kind: NodePool
metadata: { name: gpu }
spec:
  labels: { gpu: "true" }
`;

const nodePool = { apiVersion: 'nodes.specforge.dev/v1', kind: 'NodePool', metadata: { name: 'gpu' } };
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodepools.nodes.specforge.dev' },
};

describe('controllerNotes', () => {
  it('says when charts render NodePools and no chart renders the NodePool CRD or the controller', () => {
    const notes = controllerNotes([
      { chart: 'pools', objects: [nodePool] },
      { chart: 'web', objects: [] },
    ]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^chart pools renders NodePool resources \(nodes\.specforge\.dev\), but no chart/,
    );
    expect(notes[0]).toContain("new ControllerBundle(chart, 'specforge-controller', { image })");
  });

  it('names the first five charts with NodePools and counts the rest', () => {
    const charts = Array.from({ length: 12 }, (_, i) => ({ chart: `c${i}`, objects: [nodePool] }));
    expect(controllerNotes(charts)[0]).toMatch(
      /^charts c0, c1, c2, c3, c4 and 7 more \(12 in all\) render NodePool resources /,
    );
    expect(controllerNotes(charts.slice(0, 5))[0]).toMatch(/^charts c0, c1, c2, c3, c4 render NodePool /);
  });

  it('says nothing when a chart renders the CRD, or the controller bundle without it, or there is no NodePool', () => {
    const bundle = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'specforge-controller', labels: { 'specforge.dev/spec-kind': 'controllerbundle' } },
    };
    expect(
      controllerNotes([
        { chart: 'a', objects: [nodePool] },
        { chart: 'c', objects: [crd] },
      ]),
    ).toEqual([]);
    expect(
      controllerNotes([
        { chart: 'a', objects: [nodePool] },
        { chart: 'c', objects: [bundle] },
      ]),
    ).toEqual([]);
    expect(controllerNotes([{ chart: 'a', objects: [crd] }])).toEqual([]);
  });
});

describe('specforge render of NodePools without the controller', () => {
  it('renders them, with a note on stderr saying the CRD and controller are missing', async () => {
    const charts = writeFiles(tempDir(), { 'pools/gpu.yaml': POOL });
    const r = await run(['render', charts, '--out', `${tempDir()}/dist`]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^specforge: note: chart pools renders NodePool resources/);
  });
});
