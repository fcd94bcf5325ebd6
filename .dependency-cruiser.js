/**
 * The architecture's boundaries, checked by `npm run lint` (dependency-cruiser): an import that
 * crosses one fails CI. test/integration/architecture.spec.ts proves each rule fails on a crossing import.
 *
 * The house (docs/design.md, "Modules and boundaries"):
 * - the kernel — `config/` (a leaf), `common/` (may use config), `database/` (may use config),
 *   `queues/` (may use common and config) — imports no feature module;
 * - feature folders (groups, participants, sessions, …) may import each other in one direction
 *   only: no two folders import each other, directly or through others;
 * - only the composition roots (the top-level files: main.ts, app.module.ts, worker.module.ts,
 *   cli.ts, … and cli/) wire modules together, and no module imports a composition root;
 * - a queue consumer's worker module is imported by composition roots only.
 */
/** The kernel's folders and the only folders of ours each may import besides itself. */
const KERNEL = {
  config: [],
  common: ['config'],
  database: ['config'],
  queues: ['common', 'config'],
};

/** `<folder>-imports-no-feature`: a kernel folder imports only the kernel folders listed. */
function kernelRules() {
  return Object.entries(KERNEL).map(([folder, allowed]) => ({
    name: `${folder}-imports-no-feature`,
    severity: 'error',
    comment: `${folder}/ is kernel: besides itself it may import ${allowed.join(', ') || 'nothing of ours'}.`,
    from: { path: `^src/${folder}/` },
    to: { path: '^src/', pathNot: `^src/(${[folder, ...allowed].join('|')})/` },
  }));
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'Two folders import each other (directly or through others): one must own the piece.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file imports itself through others.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...kernelRules(),
    {
      name: 'no-import-of-composition-roots',
      severity: 'error',
      comment:
        "Only entry points (and cli/, the CLI's wiring) compose modules; a module never imports one.",
      from: { path: '^src/[^/]+/', pathNot: '^src/cli/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'worker-modules-only-from-roots',
      severity: 'error',
      comment:
        'Queue consumers run where a composition root puts them (worker process, or RUN_WORKERS=true).',
      from: { path: '^src/[^/]+/', pathNot: '-worker\\.module\\.ts$' },
      to: { path: '-worker\\.module\\.ts$' },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '(^test/|\\.spec\\.ts$)' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment: 'The service must not need devDependencies at run time.',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
