import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  configurationTables,
  documentedVariables,
  envExample,
  shellValue,
  withConfigurationTables,
} from './config-docs';
import { CONFIG_VARIABLES, VARIABLES } from './config';

const read = (file: string) => readFileSync(join(__dirname, '..', '..', file), 'utf8');

/** When one of these fails: `npm run config:docs` rewrites both files from the declarations. */
describe('the configuration docs follow the declarations in config.ts', () => {
  it('docs/configuration.md has a row for every variable and no other, with its default', () => {
    const rows = documentedVariables(read('docs/configuration.md'));
    expect(rows.map((row) => row.name).sort()).toEqual([...CONFIG_VARIABLES].sort());
    const defaults = Object.fromEntries(rows.map((row) => [row.name, row.default]));
    for (const { name, default: value } of VARIABLES) {
      // The cell starts with the default as code: `3000`, `false` (development: `true`).
      if (value !== undefined) {
        expect({ name, startsWithDefault: defaults[name].startsWith(`\`${value}\``) }).toEqual({
          name,
          startsWithDefault: true,
        });
      }
    }
  });

  it('docs/configuration.md holds the tables the declarations give', () => {
    const markdown = read('docs/configuration.md');
    expect(markdown).toContain(configurationTables());
    expect(markdown).toEqual(withConfigurationTables(markdown));
  });

  it('.env.example is the file the declarations give', () => {
    expect(read('.env.example')).toEqual(envExample());
  });

  it('quotes a value for the shell only when it needs it', () => {
    expect(shellValue('postgres://postgres@127.0.0.1:5432/checkin')).toBe(
      'postgres://postgres@127.0.0.1:5432/checkin',
    );
    expect(shellValue('Check-in <no-reply@checkin.local>')).toBe(
      '"Check-in <no-reply@checkin.local>"',
    );
    expect(shellValue('a "b" $c `d` \\e')).toBe('"a \\"b\\" \\$c \\`d\\` \\\\e"');
  });

  it('.env.example sets every variable that has a default to it, and shows the others', () => {
    const example = read('.env.example');
    for (const { name, default: value, example: shown } of VARIABLES) {
      const line =
        shown !== undefined
          ? `# ${name}=${shown}`
          : value !== undefined
            ? `${name}=${shellValue(value)}`
            : `# ${name}=`;
      expect(example.split('\n')).toContain(line);
    }
  });
});
