'use strict';
/**
 * The client's version is the API's: `version` in this package.json equals `info.version` of the
 * OpenAPI document it is generated from (../../openapi.json, which takes it from the service's
 * package.json). A tarball named checkin-client-0.1.0.tgz is the client of API 0.1.0.
 *
 *   node scripts/version.js           exits 1, saying what to run, when the two differ
 *                                     (what `prepack` runs before building: npm pack refuses)
 *   node scripts/version.js --write   sets this package.json's version to the document's
 *                                     (`npm run sync-version`)
 *
 * `prepack` checks rather than writes: npm has read package.json (and named the tarball after its
 * version) before the script runs, so a version written then would not be the tarball's name.
 */
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_DIR = path.join(__dirname, '..');
const PACKAGE_JSON = path.join(PACKAGE_DIR, 'package.json');
const OPENAPI_JSON = path.join(PACKAGE_DIR, '..', '..', 'openapi.json');

/** `info.version` of the OpenAPI document. */
function apiVersion(openapiFile = OPENAPI_JSON) {
  const version = JSON.parse(fs.readFileSync(openapiFile, 'utf8')).info?.version;
  if (typeof version !== 'string' || version === '') {
    throw new Error(`${openapiFile} has no info.version`);
  }
  return version;
}

/** `text` (a package.json) with `version` set, in npm's layout: two spaces, a final newline. */
function withVersion(text, version) {
  return `${JSON.stringify({ ...JSON.parse(text), version }, null, 2)}\n`;
}

/** Why the package's version is not the API's, or null when it is. */
function versionProblem(packageFile = PACKAGE_JSON, openapiFile = OPENAPI_JSON) {
  const expected = apiVersion(openapiFile);
  const actual = JSON.parse(fs.readFileSync(packageFile, 'utf8')).version;
  if (actual === expected) return null;
  return (
    `The client's version (${actual}, clients/typescript/package.json) is not the API's ` +
    `(${expected}, info.version of openapi.json). Run \`npm run sync-version\` in ` +
    'clients/typescript and commit the result.'
  );
}

module.exports = { apiVersion, withVersion, versionProblem };

if (require.main === module) {
  if (process.argv.includes('--write')) {
    const version = apiVersion();
    const text = fs.readFileSync(PACKAGE_JSON, 'utf8');
    const updated = withVersion(text, version);
    if (updated !== text) fs.writeFileSync(PACKAGE_JSON, updated);
    process.stdout.write(`clients/typescript/package.json: version ${version}\n`);
  } else {
    const problem = versionProblem();
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
  }
}
