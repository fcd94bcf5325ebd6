'use strict';
/**
 * Builds the service into dist/ (the first step of `npm run build`) as nest-cli.json describes it:
 * empties the output directory (`deleteOutDir`), compiles `sourceRoot` with `tsConfigPath`, and
 * copies the files its `assets` patterns match (the page and mail templates, the stylesheet) to
 * the same place under dist/, where the code finds them next to itself. This is what `nest build`
 * does with the same file, without the Nest CLI, whose tool chain needs Node 22
 * (docs/operations.md#dependencies); `nest build` still works where it is installed.
 */
const { spawnSync } = require('node:child_process');
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

/** The files under `dir`, as paths relative to it with forward slashes. */
function filesIn(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    const file = path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name));
    return [file.split(path.sep).join('/')];
  });
}

if (options.deleteOutDir) fs.rmSync(OUT, { recursive: true, force: true });

const tsc = require.resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', TSCONFIG], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const patterns = (options.assets ?? []).map((asset) =>
  typeof asset === 'string' ? asset : asset.include,
);
const assets = filesIn(SOURCE).filter((file) =>
  patterns.some((pattern) => minimatch(file, pattern)),
);
for (const file of assets) {
  const target = path.join(OUT, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(path.join(SOURCE, file), target);
}
console.log(`build: compiled ${path.relative(ROOT, SOURCE)}/ and copied ${assets.length} assets`);
