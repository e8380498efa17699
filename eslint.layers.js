// @ts-check
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
/**
 * The rooms of src/ and the arrows allowed between them (docs/architecture.md). Enforced by
 * import-x/no-restricted-paths: an import from a room not listed for the importing room is an error.
 */
export const ROOMS = {
  util: [],
  rules: ['util'],
  specs: ['rules', 'util'],
  constructs: ['rules', 'specs', 'imports', 'util'],
  output: ['rules', 'specs', 'util'],
  /** The construct door's cdk8s `App` (`SpecforgeApp`) and the walk of an App's tree that it and the render take. */
  app: ['output', 'util'],
  gitops: ['rules', 'specs', 'constructs', 'output', 'util'],
  /**
   * The render's schedule (src/render/*.ts): when each chart is built, where (reused, cached, pooled, here) and on
   * which thread; the pass across charts and the bytes. Its three rooms below it hold the rest.
   */
  render: [
    'render/source',
    'render/chart',
    'render/module',
    'rules',
    'specs',
    'constructs',
    'gitops',
    'output',
    'app',
    'imports',
    'util',
  ],
  /** The render's input edge: charts directories and git blobs listed and read, chart modules loaded, digests. */
  'render/source': ['render/chart', 'render/module', 'rules', 'specs', 'gitops', 'output', 'util'],
  /** One chart: its input in, its checked objects and files out; pure but for running its chart module. */
  'render/chart': ['render/module', 'rules', 'specs', 'constructs', 'output', 'app', 'util'],
  /** What runs a chart module's code, guarded: exit and time limits, its errors, the files it imports and reads. */
  'render/module': ['rules', 'util'],
  /**
   * What `--cache` keeps: the chart cache, the store the render is handed (render declares it, src/render/chart-store.ts,
   * and never imports this room), the render records of render and check (handed the version: cache imports no cli)
   * and a clean git checkout's listing.
   */
  cache: ['render', 'output', 'util'],
  diff: ['rules', 'specs', 'constructs', 'gitops', 'output', 'render', 'util'],
  kube: ['rules', 'util'],
  controller: ['kube', 'rules', 'util'],
  migrate: ['kube', 'rules', 'specs', 'render', 'output', 'util'],
  /** The command line's parts beside src/cli.ts (help, flags, runs, reports): like the top level, above every room. */
  cli: [
    'rules',
    'specs',
    'constructs',
    'imports',
    'output',
    'app',
    'gitops',
    'render',
    'cache',
    'diff',
    'kube',
    'controller',
    'migrate',
    'util',
  ],
};

/**
 * Single files a room may import from a room it otherwise may not, each with its reason. constructs → output's
 * dist-writer: a chart validation looks (read-only) whether the App's outdir holds specforge render's output
 * (src/constructs/outdir-check.ts; docs/decisions.md).
 */
export const EXCEPTIONS = { constructs: { output: ['dist-writer.ts'] } };

/**
 * Rooms that must not load cdk8s (the controller runs in a small image; rules and specs are plain values; output holds
 * bytes and disk: the cdk8s side of writing is src/app/).
 */
export const WITHOUT_CDK8S = ['util', 'rules', 'specs', 'output', 'kube', 'controller'];

/**
 * Whether `room` may import `other`: listed, or inside a room listed (a room allowed `render` may import its rooms
 * too), or the room `room` is inside of (`render/chart` may not import the files of `render` unless it lists it).
 */
function allows(room, other) {
  return ROOMS[room].some((r) => r === other || other.startsWith(`${r}/`));
}

/**
 * The files of room `r` another room may not import: all under it; of a room holding the importing one, only its
 * own files (src/render/*.ts for src/render/chart), not the importing room's.
 */
function filesOf(r, room) {
  const allowed = EXCEPTIONS[room]?.[r];
  if (room.startsWith(`${r}/`)) return `./src/${r}/*.ts`;
  return allowed === undefined ? `./src/${r}/**` : `./src/${r}/!(${allowed.join('|')})`;
}

/**
 * The zones for import-x/no-restricted-paths: each room may not import the rooms it is not allowed, nor src/*.ts. A
 * room inside another (`render/chart`) is held to both zones: the outer room's arrows and its own.
 */
export function layerZones() {
  const rooms = Object.keys(ROOMS);
  return rooms.map((room) => ({
    target: `./src/${room}`,
    from: [
      ...rooms
        .filter((r) => r !== room && !allows(room, r) && !r.startsWith(`${room}/`))
        .map((r) => filesOf(r, room)),
      ...(ROOMS[room].includes('imports') ? [] : ['./src/imports/**']),
      './src/*.ts',
    ],
    message: `src/${room} may import only ${[room, ...ROOMS[room]].map((r) => `src/${r}`).join(', ')} (docs/architecture.md).`,
  }));
}

/**
 * The sub-rooms of src/diff/ (docs/architecture.md) and the arrows allowed between them: the sides (what is
 * compared: today's render, a revision's, dist/) stand alone; the comparison (objects, field changes, renames, the
 * data model) imports no other; effects (what a change does in the cluster) build on the comparison; the report
 * (formats, delivery) reads both, never the sides. src/diff/*.ts (command.ts, the schedule) may import them all, and
 * none of them it.
 */
export const DIFF_ROOMS = {
  sides: [],
  comparison: [],
  effects: ['comparison'],
  report: ['comparison', 'effects'],
};

/** The zones that keep the arrows between the sub-rooms of src/diff/. */
export function diffZones() {
  const rooms = Object.keys(DIFF_ROOMS);
  return rooms.map((room) => ({
    target: `./src/diff/${room}`,
    from: [
      ...rooms.filter((r) => r !== room && !DIFF_ROOMS[room].includes(r)).map((r) => `./src/diff/${r}/**`),
      './src/diff/*.ts',
    ],
    message: `src/diff/${room} may import only ${[room, ...DIFF_ROOMS[room]].map((r) => `src/diff/${r}`).join(', ')} of src/diff (docs/architecture.md).`,
  }));
}

/** The lint configuration blocks that keep the arrows (spread into eslint.config.js; used alone by test/architecture.test.ts). */
export function layerConfig() {
  return [
    {
      files: ['src/**/*.ts'],
      plugins: { 'import-x': importX },
      settings: {
        'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      },
      rules: {
        'import-x/no-restricted-paths': ['error', { zones: [...layerZones(), ...diffZones()] }],
        'import-x/no-unresolved': 'error',
      },
    },
    {
      files: WITHOUT_CDK8S.map((room) => `src/${room}/**/*.ts`),
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: ['cdk8s', 'cdk8s-plus-27', 'constructs'].map((name) => ({
              name,
              message: 'This room runs without cdk8s (docs/architecture.md).',
            })),
          },
        ],
      },
    },
  ];
}
