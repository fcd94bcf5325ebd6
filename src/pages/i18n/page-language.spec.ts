import Fastify, { type FastifyInstance } from 'fastify';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  installPageLanguage,
  LANGUAGE_COOKIE,
  NO_PAGE_LANGUAGE,
  PageLanguage,
  pageLanguageOf,
} from './page-language';

const PREFIXES = ['/checkin/', '/participant/'] as const;
const execFileAsync = promisify(execFile);

/** Every .ts file under `dir`, specs left out. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /(?<!\.spec)\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the page language (no AsyncLocalStorage)', () => {
  let app: FastifyInstance;
  /** Requests that reached the handler and wait for the others (the interleaving test). */
  let waiting: { count: number; release: () => void; all: Promise<void> } | null = null;

  beforeEach(async () => {
    app = Fastify();
    installPageLanguage(app, PREFIXES, { secure: false });
    const answer = (language: PageLanguage) => ({
      locale: language.locale(),
      url: language.reloadablePageUrl(),
    });
    // A page handler that reads its language, waits (other requests run meanwhile), learns the
    // participant (`?saved=`), waits again and reads it again.
    app.all('/checkin/:id', async (request) => {
      const language = pageLanguageOf(request);
      const before = language.locale();
      if (waiting) {
        waiting.count -= 1;
        if (waiting.count === 0) waiting.release();
        await waiting.all;
      }
      await sleep(Number((request.query as { delay?: string }).delay ?? 0));
      const saved = (request.query as { saved?: string }).saved;
      const toSave = saved === undefined ? null : language.participantLanguage(saved || null);
      await sleep(1);
      return { before, toSave, ...answer(language) };
    });
    app.get('/groups', (request) => answer(pageLanguageOf(request)));
    await app.ready();
  });
  afterEach(() => app.close());

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'GET', url, headers });
    return {
      body: response.json<Record<string, unknown>>(),
      setCookie: response.headers['set-cookie'] ?? null,
    };
  };

  it('imports no async_hooks: the language is carried on the request (docs/i18n.md)', () => {
    const source = readFileSync(join(__dirname, 'page-language.ts'), 'utf8');
    expect(source).not.toMatch(/from ['"](node:)?async_hooks['"]|require\(['"](node:)?async_hooks/);
    expect(source).not.toMatch(/new AsyncLocalStorage|AsyncResource/);
    // Nor does anything else in the request path: no file of src/ imports async_hooks.
    const importers = sourcesUnder(join(__dirname, '..', '..')).filter((file) =>
      /from ['"](node:)?async_hooks['"]|require\(['"](node:)?async_hooks/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(importers).toEqual([]);
  });

  it('answers a page request without turning promise hooks on in the process', async () => {
    // In a fresh process: Jest's own has them on already. The probe: with promise hooks off, a
    // promise continuation runs with async id 0 (an AsyncLocalStorage.run turns them on for good).
    const probe = `
      const { readFileSync } = require('node:fs');
      const ts = require('typescript');
      const { executionAsyncId } = require('node:async_hooks');
      require.extensions['.ts'] = (module, file) => module._compile(ts.transpileModule(
        readFileSync(file, 'utf8'),
        { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022,
          esModuleInterop: true, experimentalDecorators: true } },
      ).outputText, file);
      const hooksOn = async () => { await null; return executionAsyncId() !== 0; };
      (async () => {
        const { installPageLanguage, pageLanguageOf } = require(process.argv[1]);
        const app = require('fastify')();
        installPageLanguage(app, ['/checkin/'], { secure: false });
        app.get('/checkin/:id', async (request) => pageLanguageOf(request).locale());
        const before = await hooksOn();
        const page = await app.inject({ url: '/checkin/a?lang=de' });
        process.stdout.write(JSON.stringify({ before, page: page.body, after: await hooksOn() }));
        await app.close();
      })();
    `;
    const { stdout } = await execFileAsync(
      process.execPath,
      ['-e', probe, join(__dirname, 'page-language.ts')],
      { cwd: join(__dirname, '..', '..', '..') },
    );
    expect(JSON.parse(stdout)).toEqual({ before: false, page: 'de', after: false });
  });

  it('gives interleaved concurrent page requests each their own language', async () => {
    let release!: () => void;
    const all = new Promise<void>((resolve) => (release = resolve));
    waiting = { count: 4, release, all };
    // All four are in their handlers before any goes on; then they finish in another order.
    const answers = await Promise.all([
      get('/checkin/a?lang=de&delay=20'),
      get('/checkin/b?delay=5', { 'accept-language': 'ja' }),
      get('/checkin/c?saved=ar&delay=10', { cookie: `${LANGUAGE_COOKIE}=sv` }),
      get('/checkin/d?lang=fr&saved=fr&delay=0'),
    ]);
    waiting = null;
    expect(answers.map(({ body }) => body)).toEqual([
      { before: 'de', toSave: null, locale: 'de', url: '/checkin/a?lang=de&delay=20' },
      { before: 'ja', toSave: null, locale: 'ja', url: '/checkin/b?delay=5' },
      // The participant's saved language comes before the browser's remembered one.
      { before: 'sv', toSave: null, locale: 'ar', url: '/checkin/c?saved=ar&delay=10' },
      { before: 'fr', toSave: null, locale: 'fr', url: '/checkin/d?lang=fr&saved=fr&delay=0' },
    ]);
  });

  it('reads English outside the page prefixes, and without a request', async () => {
    expect((await get('/groups?lang=de', { 'accept-language': 'de' })).body).toEqual({
      locale: 'en',
      url: null,
    });
    expect(pageLanguageOf(undefined)).toBe(NO_PAGE_LANGUAGE);
    expect(NO_PAGE_LANGUAGE.locale()).toBe('en');
    expect(NO_PAGE_LANGUAGE.participantLanguage('de')).toBeNull();
    expect(NO_PAGE_LANGUAGE.locale()).toBe('en');
    expect(NO_PAGE_LANGUAGE.reloadablePageUrl()).toBeNull();
  });

  it('saves for the participant a ?lang= other than theirs, or the remembered one when none is saved', async () => {
    const toSave = async (url: string, cookie?: string) =>
      (await get(url, cookie ? { cookie: `${LANGUAGE_COOKIE}=${cookie}` } : {})).body.toSave;
    expect(await toSave('/checkin/a?lang=de&saved=fr')).toBe('de');
    expect(await toSave('/checkin/a?lang=de&saved=de')).toBeNull();
    expect(await toSave('/checkin/a?saved=', 'sv')).toBe('sv');
    expect(await toSave('/checkin/a?saved=fr', 'sv')).toBeNull();
    expect(await toSave('/checkin/a?saved=', 'xx')).toBeNull();
    // Accept-Language is never saved.
    expect((await get('/checkin/a?saved=', { 'accept-language': 'de' })).body).toMatchObject({
      toSave: null,
      locale: 'de',
    });
  });

  it('offers the address to switch languages on a GET only', async () => {
    const posted = await app.inject({ method: 'POST', url: '/checkin/a?lang=it' });
    expect(posted.json()).toMatchObject({ locale: 'it', url: null });
    const head = new PageLanguage({
      query: null,
      cookie: null,
      acceptLanguage: undefined,
      url: '/checkin/a',
      method: 'HEAD',
    });
    expect(head.reloadablePageUrl()).toBe('/checkin/a');
  });

  it('remembers a chosen language in the browser, and ignores a cookie it cannot parse', async () => {
    expect((await get('/checkin/a?lang=de')).setCookie).toBe(
      'checkin_lang=de; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax',
    );
    expect((await get('/checkin/a?lang=de', { cookie: 'checkin_lang=de' })).setCookie).toBeNull();
    expect((await get('/checkin/a?lang=xx')).setCookie).toBeNull();
    expect((await get('/groups?lang=de')).setCookie).toBeNull();
    const unparsable = await get('/checkin/a', {
      cookie: 'checkin_lang=%E0%A4%A',
      'accept-language': 'pl',
    });
    expect(unparsable.body.locale).toBe('pl');
  });
});
