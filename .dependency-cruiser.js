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
 * - a queue consumer's worker module is imported by composition roots only;
 * - a module reads and writes another module's tables through that module's service or a small
 *   read interface it exports (`GroupReads`, …), never through its `*.repository.ts`
 *   (`no-foreign-repository`). Composition roots (top-level files, cli/) and tests (`*.spec.ts`,
 *   test/) are exempt.
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

/**
 * Known crossings to remove (issue 49): each entry is one (importing file, foreign repository)
 * pair that existed when `no-foreign-repository` was added. The list only shrinks: convert a
 * pair to the owning module's service or read interface, then delete its entry. A new crossing
 * is not added here.
 */
const KNOWN_REPOSITORY_CROSSINGS = [
  ['src/data-at-rest/retention.sweeper.ts', 'src/sessions/idempotency.repository.ts'],
  ['src/data-at-rest/retention.sweeper.ts', 'src/webhooks/events/events.repository.ts'],
  ['src/erasure/erasure.service.ts', 'src/metrics/cohorts/cohort-cells.repository.ts'],
  ['src/erasure/erasure.service.ts', 'src/participants/consent-ledger.repository.ts'],
  ['src/erasure/erasure.service.ts', 'src/participants/participants.repository.ts'],
  ['src/erasure/erasure.service.ts', 'src/sessions/idempotency.repository.ts'],
  ['src/erasure/erasure.service.ts', 'src/sessions/sessions.repository.ts'],
  ['src/erasure/erasure.service.ts', 'src/webhooks/events/events.repository.ts'],
  ['src/ingestion/ingestion.service.ts', 'src/metrics/rollups/metric-rollups.repository.ts'],
  ['src/ingestion/ingestion.service.ts', 'src/sessions/sessions.repository.ts'],
  ['src/ingestion/ingestion.service.ts', 'src/webhooks/events/events.repository.ts'],
  ['src/interact/interact.repository.ts', 'src/participants/participants.repository.ts'],
  [
    'src/interact/sending/email-sending.repository.ts',
    'src/participants/participants.repository.ts',
  ],
  ['src/pages/browser-binding.ts', 'src/participants/memberships.repository.ts'],
  ['src/pages/checkin-pages.service.ts', 'src/participants/memberships.repository.ts'],
  ['src/pages/settings-pages.service.ts', 'src/participants/consent-ledger.repository.ts'],
  ['src/pages/unsubscribe-pages.ts', 'src/participants/participants.repository.ts'],
  ['src/privacy/participant-choices.ts', 'src/interact/interact.repository.ts'],
  ['src/privacy/participant-choices.ts', 'src/participants/consent-ledger.repository.ts'],
  ['src/privacy/participant-choices.ts', 'src/participants/memberships.repository.ts'],
  ['src/privacy/participant-choices.ts', 'src/participants/participants.repository.ts'],
  ['src/privacy/participant-choices.ts', 'src/sessions/sessions.repository.ts'],
  ['src/privacy/participant-choices.ts', 'src/webhooks/events/events.repository.ts'],
  ['src/privacy/privacy.service.ts', 'src/participants/participants.repository.ts'],
  ['src/sessions/sessions.service.ts', 'src/participants/memberships.repository.ts'],
  ['src/sessions/sessions.service.ts', 'src/participants/participants.repository.ts'],
  ['src/sessions/sessions.service.ts', 'src/webhooks/events/events.repository.ts'],
];

const escape = (path) => `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;

/**
 * `no-foreign-repository`: a file under src/<folder>/ imports no `*.repository.ts` of another
 * folder. One rule for every file not in the known list, and one per listed file that lets it
 * keep exactly its listed repositories.
 */
function foreignRepositoryRules() {
  const comment =
    "A module reaches another module's tables through that module's service or exported read " +
    'interface, not its repository (docs/design.md, "Modules and boundaries").';
  const byFile = new Map();
  for (const [file, repository] of KNOWN_REPOSITORY_CROSSINGS) {
    byFile.set(file, [...(byFile.get(file) ?? []), repository]);
  }
  return [
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment,
      from: {
        path: '^src/([^/]+)/',
        pathNot: ['^src/cli/', '\\.spec\\.ts$', ...[...byFile.keys()].map(escape)],
      },
      to: { path: '^src/[^/]+/.*\\.repository\\.ts$', pathNot: '^src/$1/' },
    },
    ...[...byFile].map(([file, repositories]) => ({
      name: 'no-foreign-repository',
      severity: 'error',
      comment: `${comment} Known crossings of ${file} (issue 49): ${repositories.join(', ')}.`,
      from: { path: escape(file) },
      to: {
        path: '^src/[^/]+/.*\\.repository\\.ts$',
        pathNot: [`^src/${file.split('/')[1]}/`, ...repositories.map(escape)],
      },
    })),
  ];
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
    ...foreignRepositoryRules(),
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
