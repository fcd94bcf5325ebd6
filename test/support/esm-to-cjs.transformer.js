'use strict';
/**
 * NestJS 12 ships its packages as ES modules only. The service runs as CommonJS and loads them
 * through Node's require(esm) (Node >= 20.19), but Jest's module system can only require() ESM on
 * Node >= 24.9. So under Jest, ES modules from node_modules are compiled to CommonJS with Babel.
 * CommonJS files pass through untouched (cheap); results are cached by Jest.
 *
 * Which files are ES modules is decided as Node decides it: `.mjs`, or `.js` under a package.json
 * with `"type": "module"`; `.cjs` and `"type": "commonjs"` never are; a `.js` of a package that
 * says neither is one when a line starts with `import`/`export` (Node's syntax detection). Looking
 * for `import.meta` anywhere would also compile CommonJS files that merely mention it in a string
 * (TypeScript's 9 MB compiler does): seconds of Babel for nothing on every cold run.
 *
 * `const require = createRequire(import.meta.url)` (used by a few @nestjs files) would clash with
 * CommonJS's own `require`, so it is dropped: CommonJS already has a `require` that resolves from
 * the same file.
 */
const babelJest = require('babel-jest').default;

const babel = babelJest.createTransformer({
  babelrc: false,
  configFile: false,
  compact: false,
  plugins: [
    'babel-plugin-transform-import-meta',
    '@babel/plugin-transform-dynamic-import',
    '@babel/plugin-transform-modules-commonjs',
  ],
});

const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const ESM_SYNTAX = /^\s*(import|export)[\s{*]/m;
const OWN_REQUIRE = /const require = createRequire\(import\.meta\.url\);/g;

/** The `type` of the package.json nearest to a directory ('' when it has none), by directory. */
const packageTypes = new Map();
function packageType(directory) {
  if (packageTypes.has(directory)) return packageTypes.get(directory);
  const file = join(directory, 'package.json');
  const parent = dirname(directory);
  let type;
  if (existsSync(file)) type = typeOf(file);
  else type = parent === directory ? '' : packageType(parent);
  packageTypes.set(directory, type);
  return type;
}

function typeOf(packageJson) {
  try {
    return JSON.parse(readFileSync(packageJson, 'utf8')).type ?? '';
  } catch {
    return ''; // not JSON: says nothing about the type
  }
}

function isEsModule(source, filename) {
  if (filename.endsWith('.mjs')) return true;
  if (filename.endsWith('.cjs')) return false;
  const type = packageType(dirname(filename));
  if (type === 'module') return true;
  if (type === 'commonjs') return false;
  return ESM_SYNTAX.test(source);
}

module.exports = {
  canInstrument: false,
  process(source, filename, options) {
    if (!isEsModule(source, filename)) return { code: source };
    return babel.process(source.replace(OWN_REQUIRE, ''), filename, options);
  },
  getCacheKey(source, filename, options) {
    return babel.getCacheKey(source, filename, options);
  },
};
