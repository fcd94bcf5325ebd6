/**
 * The typed client's README shows code that compiles (clients/typescript/README.md): each of its
 * ```ts blocks is type-checked with the TypeScript compiler against the client (src/index.ts) and
 * the types generated from openapi.json (src/schema.ts, current by `npm run openapi`). Its own
 * pattern — `const { data, error } = await client.POST(…); if (error) throw …; data.x` — compiles
 * only while every answer the document lists has a schema: an error status without one leaves
 * `data` possibly undefined after the check. Beside the README, the same compilation checks it
 * for every operation at once, and that the nullable answers are `| null` in the types.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const CLIENT = join(ROOT, 'clients', 'typescript');
const README = join(CLIENT, 'README.md');

interface Block {
  /** Where the compiler reads it: beside the README, so `./src` is the client. */
  file: string;
  /** Where its first line is written, for the failure message: `<file>:<line>`. */
  source: { file: string; line: number };
  code: string;
}

/** The ```ts (or ```typescript) blocks of a markdown text, in order. */
export function typeScriptBlocks(markdown: string, dir: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```|~~~)\s*(ts|typescript)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence] = open;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== fence) end++;
    blocks.push({
      file: join(dir, `README.block-${blocks.length + 1}.ts`),
      source: { file: 'clients/typescript/README.md', line: start + 1 },
      code: lines
        .slice(start, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join('\n'),
    });
    i = end;
  }
  return blocks;
}

/**
 * Beside the README's blocks: no response of any operation lacks a JSON schema (the compiler
 * names the ones that do), and the answers the document makes nullable accept `null` — the
 * participant's word cloud, never null, does not.
 */
const TYPE_CHECKS = `
import type { operations, Schemas } from './src';

type Responses<O> = O extends { responses: infer R } ? R : never;
type WithoutSchema = {
  [O in keyof operations]: {
    [S in keyof Responses<operations[O]>]: Responses<operations[O]>[S] extends {
      content: { 'application/json': unknown };
    }
      ? never
      : \`\${O & string} answers \${S & (string | number)} without a schema\`;
  }[keyof Responses<operations[O]>];
}[keyof operations];
// A mapped type, so that the compiler's message lists them.
export const everyResponseHasASchema: [WithoutSchema] extends [never]
  ? true
  : { [Missing in WithoutSchema]: Missing } = true;

export const nullable: [
  Schemas['GroupMhciAnswer']['all'],
  Schemas['GroupMhciAnswer'][string],
  Schemas['ParticipantMhciAnswer']['all'],
  Schemas['GroupWordcloudAnswer']['all'],
] = [null, null, null, null];
// @ts-expect-error a participant's word cloud is never null
export const neverNull: Schemas['ParticipantWordcloudAnswer']['all'] = null;
`;

/** The compiler's complaints about `blocks`, each at its README line (empty when it compiles). */
function typeCheck(blocks: Block[]): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(CLIENT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('clients/typescript/tsconfig.json cannot be read');
  // The README's code is what an application writes: an ES module with top-level await, as a
  // bundler or Node's ESM resolves it (`./src` is the client's index).
  const options: ts.CompilerOptions = {
    ...parsed.options,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    declaration: false,
  };
  const files = new Map(blocks.map((block) => [resolve(block.file), block]));
  const host = ts.createCompilerHost(options);
  const real = ts.createCompilerHost(options);
  host.getSourceFile = (fileName, language, ...rest) => {
    const block = files.get(resolve(fileName));
    return block
      ? ts.createSourceFile(fileName, block.code, language, true)
      : real.getSourceFile(fileName, language, ...rest);
  };
  host.fileExists = (fileName) => files.has(resolve(fileName)) || real.fileExists(fileName);
  host.readFile = (fileName) => files.get(resolve(fileName))?.code ?? real.readFile(fileName);
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file;
    if (!file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${text}`;
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
    const source = files.get(resolve(file.fileName))?.source;
    const where = source
      ? `${source.file}:${source.line + line}`
      : `${file.fileName.slice(ROOT.length + 1)}:${line + 1}`;
    return `${where}: TS${diagnostic.code}: ${text}`;
  });
}

describe("the typed client's README", () => {
  const blocks = typeScriptBlocks(readFileSync(README, 'utf8'), CLIENT);

  it('has TypeScript to check: the pattern `if (error) throw …; data.x` on POST /session/create', () => {
    expect(blocks.length).toBeGreaterThan(0);
    const code = blocks.map((block) => block.code).join('\n');
    expect(code).toContain("checkin.POST('/session/create'");
    expect(code).toMatch(/if \(\w+\) throw /);
  });

  it('compiles against the generated types, as does every operation, with null where answers have it', () => {
    const problems = typeCheck([
      ...blocks,
      {
        file: join(CLIENT, 'type-checks.ts'),
        source: { file: 'test/integration/client-readme.spec.ts (TYPE_CHECKS)', line: 1 },
        code: TYPE_CHECKS,
      },
    ]);
    expect(problems).toEqual([]);
  }, 120_000);
});
