'use strict';
/**
 * `npm run screenshots`: writes PNG screenshots of the participant pages — start, consent, the
 * check-in page with its privacy review, settings — in English, German, Japanese and Arabic, at
 * 1280×800 ("desktop") and 390×844 ("mobile"), whole pages at device scale 1 in 256 colours, into
 * docs/screenshots/ as `<page>-<language>-<size>.png` (docs/accessibility.md#screenshots).
 *
 * It starts the built service (dist/, `npm run screenshots` builds first) in this process on a
 * database of its own, created, migrated and dropped again, with PostgreSQL and Redis as the
 * tests use them (TEST_DATABASE_URL, REDIS_URL), and drives Debian's Chromium at
 * /usr/bin/chromium (CHROMIUM_PATH to use another, as the tests take it). Japanese needs a CJK font (Debian:
 * fonts-noto-cjk); without one the script stops rather than write pictures of empty boxes.
 * Not run in CI.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const Redis = require('ioredis');
const { chromium } = require('playwright-core');
const UPNG = require('upng-js');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'docs', 'screenshots');
const dist = (file) => require(path.join(ROOT, 'dist', file));

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LANGUAGES = ['en', 'de', 'ja', 'ar'];
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
];
/** Where the hand-off would go: never followed here, but it makes the page show its button. */
const ENGINE_URL = 'https://engine.example.com/start';

/**
 * The PNG in at most 256 colours (upng-js): about a third of Chromium's size, so that the
 * committed pictures stay small; text and edges stay sharp.
 */
function smaller(png) {
  const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.length));
  return Buffer.from(UPNG.encode(UPNG.toRGBA8(image), image.width, image.height, 256));
}

function checkFonts() {
  let japanese = '';
  try {
    japanese = execFileSync('fc-list', [':lang=ja'], { encoding: 'utf8' });
  } catch {
    // No fontconfig: the check below says what to install.
  }
  if (!/Noto Sans CJK|Noto Serif CJK|IPA|VL Gothic|Droid Sans Fallback/i.test(japanese)) {
    throw new Error(
      'No Japanese font (fc-list :lang=ja). Install one: apt-get install -y fonts-noto-cjk',
    );
  }
}

async function withAdmin(work) {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The service from dist/, on a fresh database and a free port. */
async function startService(databaseName) {
  const { loadConfig } = dist('config/config');
  const { withLocalSecrets } = dist('config/local-secrets');
  const { prepareDatabase } = dist('database/prepare-database');
  const { createApp } = dist('app.factory');
  const databaseUrl = new URL(ADMIN_DATABASE_URL);
  databaseUrl.pathname = `/${databaseName}`;
  const config = loadConfig(
    withLocalSecrets({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl.toString(),
      DB_MIGRATE_ON_START: 'true',
      PUBLIC_BASE_URL: 'http://127.0.0.1',
      QUEUE_PREFIX: databaseName,
      RUN_WORKERS: 'false',
      DEMO_BOOTSTRAP: 'false',
      ENGINE_URL,
      PUBLIC_RATE_LIMIT_REQUESTS: '0',
    }).env,
  );
  await prepareDatabase(config);
  const app = await createApp(config, { shutdownHooks: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address();
  return { app, config, baseUrl: `http://127.0.0.1:${port}` };
}

async function main() {
  checkFonts();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'app.factory.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm run screenshots does).');
  }
  const databaseName = `checkin_screenshots_${process.pid}`;
  const { app, config, baseUrl } = await startService(databaseName);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--font-render-hinting=none'],
  });
  try {
    const { EnterprisesService } = dist('enterprises/enterprises.service');
    const { ParticipantLinks } = dist('participant-links/participant-links');
    const enterprise = await app.get(EnterprisesService).create('Acme');

    async function api(method, urlPath, body) {
      const response = await fetch(`${baseUrl}${urlPath}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': enterprise.apiKey },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        throw new Error(`${method} ${urlPath}: ${response.status} ${await response.text()}`);
      }
      return response.json();
    }

    /** A group (as the screenshots name it) asking for `requested`, consent if asked. */
    async function newGroup(groupName, requested, consentRequired) {
      const group = await api('POST', '/groups', { groupName });
      await api('POST', `/configure/groups/${group.groupID}/privacy`, {
        requestedPrivacyLevel: requested,
      });
      if (consentRequired)
        await api('PUT', `/groups/${group.groupID}`, { consentRequired: 'true' });
      return group;
    }
    const night = await newGroup('Night shift', ['mhci', 'transcript'], false);
    const study = await newGroup('Wellbeing study', ['mhci'], true);

    let participants = 0;
    /** A new participant's check-in link in `group`: its path, and its membership. */
    async function newCheckin(group) {
      participants += 1;
      const created = await api('POST', '/session/create', {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: `screenshot${participants}@example.com`,
        returnURL: 'https://app.example.com/done',
      });
      const { rows } = await withDatabase((client) =>
        client.query('SELECT participant_id, group_id FROM sessions WHERE session_id = $1', [
          created.sessionID,
        ]),
      );
      return {
        path: new URL(created.redirectUrl).pathname,
        membership: {
          participantId: rows[0].participant_id,
          groupId: Number(rows[0].group_id),
          linkVersion: 0,
        },
      };
    }
    async function withDatabase(work) {
      const client = new Client({ connectionString: config.database.url });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    }

    fs.mkdirSync(OUT, { recursive: true });
    const written = [];
    for (const language of LANGUAGES) {
      for (const size of SIZES) {
        // One browser per language and size: links bind to the browser that starts them.
        const context = await browser.newContext({
          locale: language,
          viewport: { width: size.width, height: size.height },
          deviceScaleFactor: 1,
        });
        const page = await context.newPage();
        const shoot = async (name) => {
          const file = path.join(OUT, `${name}-${language}-${size.name}.png`);
          fs.writeFileSync(file, smaller(await page.screenshot({ fullPage: true })));
          written.push(path.relative(ROOT, file));
        };
        const open = (urlPath) =>
          page.goto(`${baseUrl}${urlPath}${urlPath.includes('?') ? '&' : '?'}lang=${language}`);
        const press = async (index) => {
          await page.locator('main button[type=submit]').nth(index).click();
          await page.waitForLoadState();
        };

        // Start, then the check-in page with its privacy review.
        const checkin = await newCheckin(night);
        await open(checkin.path);
        await shoot('start');
        await press(0);
        await shoot('checkin');

        // Consent: a group that asks for it.
        const consenting = await newCheckin(study);
        await open(consenting.path);
        await press(0);
        await shoot('consent');

        // Settings of the check-in above, from an email's link, after a level was saved there.
        await page.goto(`${baseUrl}${checkin.path}`);
        await page.locator('#privacy-level-2').check();
        await press(0);
        const settings = new URL(app.get(ParticipantLinks).settingsUrl(checkin.membership));
        await open(`${settings.pathname}${settings.search}`);
        await shoot('settings');
        await context.close();
      }
    }
    console.log(`screenshots: wrote ${written.length} files to docs/screenshots/`);
  } finally {
    await browser.close();
    await app.close();
    await withAdmin((client) =>
      client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
    );
    const redis = new Redis(config.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${databaseName}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    redis.disconnect();
  }
}

main().catch((error) => {
  console.error(`screenshots: ${error.message}`);
  process.exit(1);
});
