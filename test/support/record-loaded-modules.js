'use strict';
/**
 * Preloaded into a service process by a test (`NODE_OPTIONS=--require <this file>`): when the
 * process exits, the paths of every CommonJS module it loaded are written, as a JSON array, to
 * the file LOADED_MODULES_FILE names. test/tracing.e2e-spec.ts reads it to see that with tracing
 * off no part of OpenTelemetry's SDK was loaded.
 */
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(require.cache)));
});
