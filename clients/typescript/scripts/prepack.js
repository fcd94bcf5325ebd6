'use strict';
/**
 * `prepack`: what npm runs before `npm pack` packs this folder. Checks that the client's version
 * is the API's (scripts/version.js), then compiles src/ into JavaScript and declarations in
 * dist/src/ with tsconfig.package.json: the files the package ships (`files` in package.json).
 *
 * The compiler is the repository's (the root's `npm ci` installs it), found from here as Node
 * finds any package: the client needs no install of its own to be built.
 *
 * Why `prepack` and not `prepare`: npm lists a dependency with a `prepare` script that comes from
 * a tarball among the "install scripts not yet covered by allowScripts" (and refuses it under a
 * strict allowScripts policy), although it never runs it there. With `prepack`, installing the
 * tarball runs nothing and warns of nothing. A folder installed as a link is used as it is: its
 * dist/src/ comes from `npm run build` at the root or `npm run prepack` here (README.md).
 *
 * The root build (`npm run build`) writes the same dist/src/ (with the examples beside it), and
 * `npm run quickstart` runs from it. So this compiles into a staging folder first, then moves in
 * only the files that differ, each by one rename, and removes files no source produces any more:
 * a process loading dist/src/ meanwhile never reads a half-written file.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { versionProblem } = require('./version');

const PACKAGE_DIR = path.join(__dirname, '..');
const OUT = path.join(PACKAGE_DIR, 'dist', 'src');

function fail(message) {
  console.error(`@checkin/client: ${message}`);
  process.exit(1);
}

/** The files under `dir`, relative to it, sorted. */
function filesIn(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

const problem = versionProblem();
if (problem) fail(problem);

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc', { paths: [PACKAGE_DIR] });
} catch {
  fail(
    "TypeScript is not installed. The client is built with the repository's compiler: run " +
      '`npm ci` at the repository root first.',
  );
}

const staging = path.join(PACKAGE_DIR, 'dist', `.src-staging-${process.pid}`);
fs.rmSync(staging, { recursive: true, force: true });
try {
  const compiled = spawnSync(
    process.execPath,
    [tsc, '-p', path.join(PACKAGE_DIR, 'tsconfig.package.json'), '--outDir', staging],
    { cwd: PACKAGE_DIR, stdio: 'inherit' },
  );
  if (compiled.status !== 0) fail('tsc -p tsconfig.package.json failed (above).');

  const built = filesIn(staging);
  for (const file of built) {
    const source = path.join(staging, file);
    const target = path.join(OUT, file);
    const same = fs.existsSync(target) && fs.readFileSync(target).equals(fs.readFileSync(source));
    if (same) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(source, target);
  }
  for (const file of filesIn(OUT)) {
    if (!built.includes(file)) fs.rmSync(path.join(OUT, file));
  }
  process.stderr.write(`@checkin/client: compiled src/ into dist/src/ (${built.length} files)\n`);
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
}
