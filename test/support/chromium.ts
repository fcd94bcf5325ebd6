/**
 * Headless Chromium for the browser tests, driven by playwright-core (docs/tests.md, "Browsers").
 *
 * Which browser: `CHROMIUM_PATH` when it is set (a Chrome or Chromium of the machine's own), and
 * otherwise the Chromium that the devDependency `@sparticuz/chromium` ships inside its package, so
 * `npm ci && npm test` needs no system browser. That one is unpacked once into
 * `node_modules/.cache/` (npm ci removes it), never into the machine's temporary folder, and the
 * unpacking is atomic (a staging folder renamed into place), so two jest workers racing for it both
 * get a whole browser.
 *
 * Failing fast: a launch that cannot start throws within LAUNCH_TIMEOUT_MS naming the executable,
 * and `closeAll` never waits on something that was never started.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Browser, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const LAUNCH_TIMEOUT_MS = 20_000;

/** The package's version (its exports hide package.json, so it is read from beside its build). */
const NPM_CHROMIUM_VERSION = (
  JSON.parse(
    readFileSync(resolve(require.resolve('@sparticuz/chromium'), '../../../package.json'), 'utf8'),
  ) as { version: string }
).version;

/** Where the npm Chromium is unpacked: inside the project, per version. */
export const NPM_CHROMIUM_DIR = resolve(
  __dirname,
  '../../node_modules/.cache',
  `checkin-chromium-${NPM_CHROMIUM_VERSION}`,
);

let executable: Promise<string> | undefined;

/** The browser's executable: CHROMIUM_PATH, or npm's Chromium unpacked on first use. */
export function chromiumExecutable(): Promise<string> {
  executable ??= findExecutable();
  return executable;
}

async function findExecutable(): Promise<string> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) {
      throw new Error(`CHROMIUM_PATH is ${configured}, which does not exist.`);
    }
    return configured;
  }
  const binary = join(NPM_CHROMIUM_DIR, 'chromium');
  if (existsSync(binary)) return binary;
  return unpackNpmChromium(binary);
}

/**
 * `@sparticuz/chromium` unpacks into `os.tmpdir()`. It runs in a child process whose TMPDIR is a
 * staging folder of ours (a jest test's `process.env` is not the one `os` reads), and the staging
 * folder is then renamed into place.
 */
async function unpackNpmChromium(binary: string): Promise<string> {
  const staging = `${NPM_CHROMIUM_DIR}.${process.pid}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const unpacked = await new Promise<{ code: number | null; stderr: string }>((done) => {
    const child = execFile(
      process.execPath,
      ['-e', "require('@sparticuz/chromium').executablePath().then((path) => console.log(path))"],
      { env: { ...process.env, TMPDIR: staging }, cwd: resolve(__dirname, '../..') },
      (error, _stdout, stderr) => done({ code: error ? (child.exitCode ?? 1) : 0, stderr }),
    );
  });
  if (unpacked.code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm's Chromium (@sparticuz/chromium) did not unpack: ${unpacked.stderr}`);
  }
  try {
    renameSync(staging, NPM_CHROMIUM_DIR);
  } catch {
    // Another worker's copy got there first: use that one.
    rmSync(staging, { recursive: true, force: true });
  }
  if (!existsSync(binary)) throw new Error(`npm's Chromium did not unpack to ${binary}.`);
  return binary;
}

/** A headless browser, or an error within LAUNCH_TIMEOUT_MS saying which one failed. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumExecutable();
  try {
    return await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
      timeout: LAUNCH_TIMEOUT_MS,
    });
  } catch (error) {
    throw new Error(
      `Chromium at ${executablePath} did not start (set CHROMIUM_PATH to another): ${String(error)}`,
      { cause: error },
    );
  }
}
