'use strict';
/**
 * Builds the service into dist/ (the first step of `npm run build`): empties dist/, compiles src/
 * with tsconfig.build.json, and copies every file of src/ that is not TypeScript (the page and
 * mail templates, the stylesheet) to the same place under dist/, where the code finds them next
 * to itself. What `nest build` did with nest-cli.json's `deleteOutDir` and `assets`, without the
 * Nest CLI, whose tool chain needs Node 22 (docs/operations.md#dependencies).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

/** The files under `dir`, as paths relative to it. */
function filesIn(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    return [path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name))];
  });
}

fs.rmSync(DIST, { recursive: true, force: true });

const tsc = require.resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const assets = filesIn(SRC).filter((file) => !file.endsWith('.ts'));
for (const file of assets) {
  const target = path.join(DIST, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(SRC, file), target);
}
console.log(`build-app: compiled src/ and copied ${assets.length} assets to dist/`);
