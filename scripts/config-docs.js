'use strict';
/**
 * `npm run config:docs`: writes `.env.example` and the tables of docs/configuration.md from the
 * variable declarations in src/config/config.ts (see src/config/config-docs.ts).
 * `node scripts/config-docs.js --check` writes nothing and exits 1, naming the stale files, when
 * either differs. Needs a current `dist/` (`npm run build`; `npm run config:docs` builds first).
 * The unit test src/config/config-docs.spec.ts makes the same comparison.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const ENV_EXAMPLE = '.env.example';
const CONFIGURATION = 'docs/configuration.md';

function main() {
  const docs = require(path.join(ROOT, 'dist', 'config', 'config-docs.js'));
  const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8');
  const files = {
    [ENV_EXAMPLE]: docs.envExample(),
    [CONFIGURATION]: docs.withConfigurationTables(read(CONFIGURATION)),
  };
  const stale = Object.keys(files).filter((file) => read(file) !== files[file]);
  if (process.argv.includes('--check')) {
    if (stale.length > 0) {
      console.error(
        `Stale: ${stale.join(', ')} differ from the declarations in src/config/config.ts. ` +
          'Run `npm run config:docs` and commit the result.',
      );
      return 1;
    }
    process.stdout.write(`${Object.keys(files).join(' and ')} are up to date.\n`);
    return 0;
  }
  for (const file of stale) fs.writeFileSync(path.join(ROOT, file), files[file]);
  process.stdout.write(
    stale.length > 0
      ? `Wrote ${stale.join(', ')}.\n`
      : `${Object.keys(files).join(' and ')} were already current.\n`,
  );
  return 0;
}

process.exit(main());
