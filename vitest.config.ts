import { defineConfig } from 'vitest/config';

const RUN_TMPDIR = 'test/support/run-tmpdir.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // The JSON report lets .ci/run print a plain "N passed, N failed, N skipped" line.
    reporters: ['default', 'json'],
    outputFile: { json: '.cache/vitest-report.json' },
    // One temporary directory for the whole run (TMPDIR), removed when it ends: test/support/run-tmpdir.ts. The
    // projects that start a cluster name it again first, so that within them it is set up before the cluster and
    // torn down after it (its last teardown removes it). Removing a run's files takes longer than vitest's 10 s.
    globalSetup: [RUN_TMPDIR],
    teardownTimeout: 180_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/cluster/**', 'test/nodes/**', '**/node_modules/**'],
        },
      },
      {
        // Runs against a real kube-apiserver and etcd (test/cluster/global-setup.ts); the control plane starts only
        // when a cluster test file is selected.
        extends: true,
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          globalSetup: [RUN_TMPDIR, 'test/cluster/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // A whole cluster with two nodes in a network namespace of its own (test/nodes/global-setup.ts): pods run,
        // Services carry traffic. Needs root; starts only when a node suite is selected.
        extends: true,
        test: {
          name: 'nodes',
          include: ['test/nodes/**/*.test.ts'],
          globalSetup: [RUN_TMPDIR, 'test/nodes/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
