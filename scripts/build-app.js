'use strict';
/**
 * `npm run build`: the service, its migrations and the typed client, as nest-cli.json describes
 * the service (docs/operations.md, "Building").
 *
 * - The service (`sourceRoot` with `tsConfigPath`, plus the files its `assets` patterns match: page
 *   and mail templates, the stylesheet, the catalogues) and the migrations are compiled into a
 *   staging folder beside dist/, which then replaces dist/ by two renames. A service running from
 *   dist/ never sees it emptied or half written (what `deleteOutDir` would do to it).
 * - The typed client compiles into clients/typescript/dist/.
 * - dist/.build-stamp records a digest of every input. With `--if-stale` (what `npm test` and
 *   `npm run test:chaos` run) nothing is built when the stamp matches: a test run does not rebuild
 *   a current build, and CI builds once.
 *
 * This is what `nest build` does with the same nest-cli.json, without the Nest CLI, whose tool
 * chain needs Node 22 (docs/operations.md#dependencies).
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { minimatch } = require('minimatch');

const ROOT = path.join(__dirname, '..');
const nestCli = JSON.parse(fs.readFileSync(path.join(ROOT, 'nest-cli.json'), 'utf8'));
const options = nestCli.compilerOptions ?? {};
const SOURCE = path.join(ROOT, nestCli.sourceRoot ?? 'src');
const TSCONFIG = options.tsConfigPath ?? 'tsconfig.build.json';
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, TSCONFIG), 'utf8'));
const OUT = path.join(ROOT, tsconfig.compilerOptions?.outDir ?? 'dist');
const STAMP = path.join(OUT, '.build-stamp');

/** Everything a build reads: sources, migrations, the client, the compiler settings, the lockfile. */
const INPUT_DIRECTORIES = [
  'src',
  'migrations',
  'clients/typescript/src',
  'clients/typescript/examples',
];
const INPUT_FILES = [
  'nest-cli.json',
  'package-lock.json',
  'tsconfig.json',
  TSCONFIG,
  'tsconfig.migrations.json',
  'clients/typescript/tsconfig.json',
  'clients/typescript/package.json',
  'scripts/build-app.js',
];

/** The files under `dir`, as paths relative to it with forward slashes, sorted. */
function filesIn(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) => {
      if (!entry.isFile()) return [];
      const file = path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name));
      return [file.split(path.sep).join('/')];
    })
    .sort();
}

function inputDigest() {
  const hash = createHash('sha256');
  const files = [
    ...INPUT_DIRECTORIES.flatMap((dir) =>
      filesIn(path.join(ROOT, dir)).map((file) => `${dir}/${file}`),
    ),
    ...INPUT_FILES,
  ];
  for (const file of files) {
    const full = path.join(ROOT, file);
    if (!fs.existsSync(full)) continue;
    hash.update(`${file}\0`).update(fs.readFileSync(full)).update('\0');
  }
  return hash.digest('hex');
}

function run(args) {
  const result = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), ...args], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const digest = inputDigest();
const current = fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === digest;
if (process.argv.includes('--if-stale') && current) {
  console.log(`build: ${path.relative(ROOT, OUT)}/ is current (${digest.slice(0, 12)})`);
  process.exit(0);
}

const staging = `${OUT}.staging-${process.pid}`;
fs.rmSync(staging, { recursive: true, force: true });
try {
  run(['-p', TSCONFIG, '--outDir', staging]);
  run(['-p', 'tsconfig.migrations.json', '--outDir', path.join(staging, 'migrations')]);
  const patterns = (options.assets ?? []).map((asset) =>
    typeof asset === 'string' ? asset : asset.include,
  );
  const assets = filesIn(SOURCE).filter((file) =>
    patterns.some((pattern) => minimatch(file, pattern)),
  );
  for (const file of assets) {
    const target = path.join(staging, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(SOURCE, file), target);
  }
  run(['-p', 'clients/typescript/tsconfig.json']);
  fs.writeFileSync(path.join(staging, '.build-stamp'), `${digest}\n`);
  // The swap: the old build is renamed away and removed only after the new one is in place.
  const previous = `${OUT}.previous-${process.pid}`;
  if (fs.existsSync(OUT)) fs.renameSync(OUT, previous);
  fs.renameSync(staging, OUT);
  fs.rmSync(previous, { recursive: true, force: true });
  console.log(
    `build: compiled ${path.relative(ROOT, SOURCE)}/, migrations/ and the client, ` +
      `copied ${assets.length} assets`,
  );
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
}
