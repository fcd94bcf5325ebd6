/**
 * The boundary rules in .dependency-cruiser.js (run by `npm run lint`) hold for src/, and each of
 * them fails on an import that crosses it: a throw-away tree with one crossing import per rule is
 * cruised with the project's own configuration, through the same CLI CI runs.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.js');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Cruises `src` under `cwd` with the project's rules; answers the violations. */
async function violations(cwd: string): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(
    DEPCRUISE,
    ['src', '--config', CONFIG, '--output-type', 'json'],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const result = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations;
}

/** A tree of files: path → the modules it imports (relative specifiers). */
async function writeTree(root: string, files: Record<string, string[]>): Promise<void> {
  await writeFile(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }),
  );
  for (const [path, imports] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    const lines = imports.map((target, index) => `import * as m${index} from '${target}';`);
    const uses = imports.map((_, index) => `m${index}`).join(', ');
    await writeFile(join(root, path), `${lines.join('\n')}\nexport const used = [${uses}];\n`);
  }
}

/** A small, legal house: kernel below features, one direction between features, roots on top. */
const LEGAL: Record<string, string[]> = {
  'src/config/config.ts': [],
  'src/common/ids.ts': ['../config/config'],
  'src/database/database.ts': ['../config/config'],
  'src/queues/outbox-sweeper.ts': ['../common/ids', '../config/config'],
  'src/groups/group.entity.ts': ['../database/database', '../common/ids'],
  'src/groups/groups.repository.ts': ['./group.entity'],
  'src/groups/group-access.ts': ['./groups.repository'],
  'src/groups/groups.service.ts': ['./groups.repository'],
  'src/sessions/sessions.service.ts': ['../groups/groups.service', '../groups/group-access'],
  'src/sessions/sessions.service.spec.ts': ['./sessions.service', '../groups/groups.repository'],
  'src/cli/demo.commands.ts': ['../groups/groups.repository'],
  'src/webhooks/webhook-queue.ts': [],
  'src/webhooks/delivery/delivery-worker.module.ts': [
    '../webhook-queue',
    '../../queues/outbox-sweeper',
  ],
  'src/app.module.ts': [
    './sessions/sessions.service',
    './webhooks/delivery/delivery-worker.module',
  ],
};

describe('architecture boundaries (dependency-cruiser)', () => {
  let scratch: string;

  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'boundaries-'));
  });
  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('src/ crosses none of them', async () => {
    expect(await violations(ROOT)).toEqual([]);
  }, 60_000);

  it('a legal house passes', async () => {
    await writeTree(scratch, LEGAL);
    expect(await violations(scratch)).toEqual([]);
  }, 60_000);

  it.each([
    ['config-imports-no-feature', { 'src/config/config.ts': ['../common/ids'] }],
    ['common-imports-no-feature', { 'src/common/ids.ts': ['../groups/groups.service'] }],
    ['database-imports-no-feature', { 'src/database/database.ts': ['../groups/group.entity'] }],
    [
      'queues-imports-no-feature',
      { 'src/queues/outbox-sweeper.ts': ['../webhooks/webhook-queue'] },
    ],
    ['no-folder-cycles', { 'src/groups/groups.service.ts': ['../sessions/sessions.service'] }],
    ['no-import-of-composition-roots', { 'src/sessions/sessions.service.ts': ['../app.module'] }],
    [
      'worker-modules-only-from-roots',
      { 'src/sessions/sessions.service.ts': ['../webhooks/delivery/delivery-worker.module'] },
    ],
    ['no-foreign-repository', { 'src/webhooks/webhook-queue.ts': ['../groups/groups.repository'] }],
    [
      // a file with known crossings (issue 49) may not add another
      'no-foreign-repository',
      {
        'src/erasure/erasure.service.ts': ['../groups/groups.repository'],
      },
    ],
  ])(
    '%s fails on a crossing import',
    async (rule, crossing) => {
      await writeTree(scratch, { ...LEGAL, ...crossing });
      const names = (await violations(scratch)).map((violation) => violation.rule.name);
      expect(names).toContain(rule);
    },
    60_000,
  );
});
