/**
 * The two env files an operator loads (docs/configuration.md, docs/operations.md): .env.example
 * (its header says `set -a && . ./.env`) and deploy/production.env.example (compose's env_file)
 * load with the shell and with `node --env-file`, and both give every variable the same value.
 * A value with spaces or `<` unquoted was once a shell syntax error, or a command run by `.`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const FILES = ['.env.example', 'deploy/production.env.example'];

/** The variables a file sets (uncommented `NAME=` lines). */
const namesIn = (file: string): string[] =>
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));

/** `names` as a child process sees them, as JSON. */
const PRINT = `process.stdout.write(JSON.stringify(Object.fromEntries(process.argv.slice(1).map((n) => [n, process.env[n] ?? null]))))`;

describe.each(FILES)('%s', (file) => {
  const names = namesIn(file);
  const clean = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

  it('sets variables', () => {
    expect(names.length).toBeGreaterThan(5);
  });

  it('loads with the shell (set -a && . file) and with node --env-file, to the same values', () => {
    const shell = JSON.parse(
      execFileSync(
        'bash',
        [
          '-euc',
          `set -a && . "./${file}" && set +a && exec node -e '${PRINT}' "$@"`,
          'bash',
          ...names,
        ],
        { cwd: ROOT, env: clean, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    ) as Record<string, string | null>;
    const node = JSON.parse(
      execFileSync(process.execPath, [`--env-file=${file}`, '-e', PRINT, ...names], {
        cwd: ROOT,
        env: clean,
        encoding: 'utf8',
      }),
    ) as Record<string, string | null>;
    expect(shell).toEqual(node);
    for (const name of names) expect(shell[name]).not.toBeNull();
    // The values that need quotes arrive without them.
    for (const value of Object.values(shell)) expect(value).not.toMatch(/^".*"$/);
  });
});
