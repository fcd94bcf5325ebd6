/**
 * The development bootstrap (DemoBootstrap) with EnterprisesService faked:
 * - it asks for a sandbox enterprise named "Demo Enterprise", created only when none exists;
 * - when one was created, its API key is printed once, to stdout, with the sandbox note, the
 *   Swagger UI address and the quickstart command; when none was, the command that issues another
 *   key for the demo enterprise (nothing when there is none);
 * - the quickstart command names CHECKIN_BASE_URL only when the service is not at the address
 *   the quickstart example assumes (http://localhost:3000).
 */
import { loadConfig } from '../config/config';
import { DEMO_ENTERPRISE_NAME, DemoBootstrap, quickstartCommand } from './demo-bootstrap';
import type { CreatedEnterprise, EnterprisesService } from './enterprises.service';
import { SANDBOX_NOTE } from './enterprises.service';

const API_KEY = `ck_${'D'.repeat(40)}`;
const ENTERPRISE_ID = '00000000-0000-4000-8000-0000000000de';

function bootstrapWith(
  created: CreatedEnterprise | null,
  env: Record<string, string> = {},
  existingDemo: string | null = null,
) {
  const createIfNoneExist = jest.fn(() => Promise.resolve(created));
  const sandboxNamed = jest.fn(() => Promise.resolve(existingDemo));
  const enterprises = { createIfNoneExist, sandboxNamed } as unknown as EnterprisesService;
  const bootstrap = new DemoBootstrap(enterprises, loadConfig({ NODE_ENV: 'test', ...env }));
  const written: string[] = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  return { bootstrap, createIfNoneExist, written };
}

describe('DemoBootstrap', () => {
  afterEach(() => jest.restoreAllMocks());

  it('creates the sandbox "Demo Enterprise" on an empty database and prints its key once', async () => {
    const { bootstrap, createIfNoneExist, written } = bootstrapWith(
      { enterpriseId: ENTERPRISE_ID, name: DEMO_ENTERPRISE_NAME, apiKey: API_KEY, sandbox: true },
      { PUBLIC_BASE_URL: 'https://checkin.example.com/' },
    );
    await bootstrap.runOnEmptyDatabase();

    expect(createIfNoneExist.mock.calls).toEqual([['Demo Enterprise', { sandbox: true }]]);
    expect(written).toEqual([
      [
        '',
        `Created the sandbox enterprise "Demo Enterprise" (${ENTERPRISE_ID}).`,
        'Sandbox: complete its sessions with POST /sandbox/sessions/{sessionID}/complete; ' +
          'its mails are captured at GET /sandbox/emails, never sent.',
        `Its API key, shown only this once: ${API_KEY}`,
        'Swagger UI: https://checkin.example.com/docs',
        `The whole flow, with the typed client: CHECKIN_BASE_URL=https://checkin.example.com CHECKIN_API_KEY=${API_KEY} npm run quickstart`,
        '',
        '',
      ].join('\n'),
    ]);
    expect(written[0]).toContain(SANDBOX_NOTE);
  });

  it('on a later start, says how to issue another key for the demo enterprise', async () => {
    const { bootstrap, written } = bootstrapWith(null, {}, ENTERPRISE_ID);
    await bootstrap.runOnEmptyDatabase();
    expect(written).toEqual([
      `\nThe sandbox enterprise "Demo Enterprise" (${ENTERPRISE_ID}) was created at the first ` +
        `start; its API key was shown then only. Lost it? ` +
        `npm run cli:dev -- api-keys:create --enterprise ${ENTERPRISE_ID}\n\n`,
    ]);
  });

  it('prints nothing when an enterprise already exists and none is the demo one', async () => {
    const { bootstrap, createIfNoneExist, written } = bootstrapWith(null);
    await bootstrap.runOnEmptyDatabase();
    expect(createIfNoneExist).toHaveBeenCalledTimes(1);
    expect(written).toEqual([]);
  });
});

describe('quickstartCommand', () => {
  it('names the address only when it is not the example default', () => {
    expect(quickstartCommand('http://localhost:3000', API_KEY)).toBe(
      `CHECKIN_API_KEY=${API_KEY} npm run quickstart`,
    );
    expect(quickstartCommand('http://localhost:3100', API_KEY)).toBe(
      `CHECKIN_BASE_URL=http://localhost:3100 CHECKIN_API_KEY=${API_KEY} npm run quickstart`,
    );
  });
});
