'use strict';
/**
 * Adds lockfile entries for platform-specific optional packages that `npm install` could not
 * record (the registry mirror this project installs from lacks some of them, e.g. darwin builds),
 * so `npm ci` accepts the lockfile on every platform. Each added entry is marked optional with the
 * os/cpu its name implies; on a platform that matches, npm installs it, elsewhere it is skipped.
 * Run after `npm install`: `node scripts/complete-lockfile.js`.
 */
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openharmony',
  'win32',
  'sunos',
  'aix',
  'netbsd',
  'openbsd',
];
const CPU = [
  'arm64',
  'arm',
  'x64',
  'ia32',
  'loong64',
  'ppc64',
  'riscv64',
  's390x',
  'wasm32',
  'mips64el',
];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((candidate) => parts.includes(candidate));
  const cpu = CPU.find((candidate) => parts.includes(candidate));
  return { os, cpu };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const { os, cpu } = platformOf(name);
    packages[hoisted] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform-specific optional entries`);
