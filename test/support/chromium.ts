/**
 * Headless Chromium for the browser tests (Debian's `chromium`, driven by playwright-core):
 * where it is and how every test launches it. Without /usr/bin/chromium those tests fail, saying
 * so (.ci/run installs it).
 */
import type { LaunchOptions } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
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
export const CHROMIUM_LAUNCH: LaunchOptions = { executablePath: CHROMIUM, args: CHROMIUM_ARGS };
