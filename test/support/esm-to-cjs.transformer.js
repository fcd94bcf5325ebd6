'use strict';
/**
 * NestJS 12 ships its packages as ES modules only. The service runs as CommonJS and loads them
 * through Node's require(esm) (Node >= 20.19), but Jest's module system can only require() ESM on
 * Node >= 24.9. So under Jest, ES modules from node_modules are compiled to CommonJS with Babel.
 * CommonJS files pass through untouched (cheap); results are cached by Jest.
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

const ESM_SYNTAX = /^\s*(import|export)[\s{*]|import\.meta/m;
const OWN_REQUIRE = /const require = createRequire\(import\.meta\.url\);/g;

module.exports = {
  canInstrument: false,
  process(source, filename, options) {
    if (!ESM_SYNTAX.test(source)) return { code: source };
    return babel.process(source.replace(OWN_REQUIRE, ''), filename, options);
  },
  getCacheKey(source, filename, options) {
    return babel.getCacheKey(source, filename, options);
  },
};
