import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLocalSecrets } from './local-secrets';

describe('withLocalSecrets', () => {
  let directory: string;
  let file: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'local-secrets-'));
    file = join(directory, 'secrets.env');
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('leaves production (NODE_ENV unset included) alone and creates no file', () => {
    for (const NODE_ENV of [undefined, '', 'production']) {
      const env = { NODE_ENV, LOCAL_SECRETS_FILE: file };
      expect(withLocalSecrets(env)).toEqual({ env, filled: [], file, created: false });
    }
    expect(existsSync(file)).toBe(false);
  });

  it('generates the file once in development and test, and fills only what is missing', () => {
    const first = withLocalSecrets({ NODE_ENV: 'development', LOCAL_SECRETS_FILE: file });
    expect(first.created).toBe(true);
    expect(first.filled).toEqual(['DATA_ENCRYPTION_KEY', 'CHECKIN_TOKEN_SECRET', 'ENGINE_TOKEN']);
    const second = withLocalSecrets({
      NODE_ENV: 'test',
      LOCAL_SECRETS_FILE: file,
      ENGINE_TOKEN: 'mine'.repeat(10),
      CHECKIN_TOKEN_SECRETS: `t1:${'s'.repeat(32)}`,
    });
    expect(second.created).toBe(false);
    expect(second.filled).toEqual(['DATA_ENCRYPTION_KEY']);
    expect(second.env.DATA_ENCRYPTION_KEY).toBe(first.env.DATA_ENCRYPTION_KEY);
    expect(second.env.ENGINE_TOKEN).toBe('mine'.repeat(10));
    expect(second.env.CHECKIN_TOKEN_SECRET).toBeUndefined();
  });

  it('reads a file another process wrote, ignoring comments and unknown lines', () => {
    writeFileSync(file, '# comment\nOTHER=x\nENGINE_TOKEN=from-the-file-0123456789abcdef012345\n');
    const result = withLocalSecrets({ NODE_ENV: 'development', LOCAL_SECRETS_FILE: file });
    expect(result).toMatchObject({ created: false, filled: ['ENGINE_TOKEN'] });
    expect(result.env.ENGINE_TOKEN).toBe('from-the-file-0123456789abcdef012345');
    expect(readFileSync(file, 'utf8')).toContain('OTHER=x');
  });
});
