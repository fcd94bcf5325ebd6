/**
 * docs/tests.md, "Rules": no fixed wait of 100 ms or more is left in test/. Every wait for time to
 * pass in test/ — `sleep(ms)`, `setTimeout(resolve, ms)` (or any timer that does not reject), `await
 * setTimeout(ms)` from node:timers/promises, a page's `waitForTimeout(ms)` — is found with the
 * TypeScript parser (so comments and strings never count) and fails, named by file and line, when
 * its duration is 100 ms or more, or computed: anything but numbers and the numeric constants a file
 * under test/ declares (`POLL_INTERVAL_MS`, 25 ms), so `sleep(retryAfter * 1_000)` or
 * `sleep(3 * SETTLE_INTERVAL_MS)` fails. A timer whose callback rejects is a deadline, not a wait.
 * The few waits that may stay are in ALLOWED, each with its reason; an entry that no longer matches
 * exactly its count fails too, so the list cannot go stale. It also checks itself on made-up code
 * that must fail.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const TEST_DIR = join(ROOT, 'test');
/** A fixed wait this long or longer is a wait for time to pass that a test should not have. */
const LIMIT_MS = 100;

interface Allowed {
  /** Relative to the repository, with `/`. */
  file: string;
  /** The duration exactly as written (its source text). */
  duration: string;
  /** How many waits of this file have that duration. */
  count: number;
  why: string;
}

/** The waits that may stay, and why; an entry must match exactly `count` waits. */
const ALLOWED: Allowed[] = [
  // The sleep helpers themselves: each call of them is checked like a wait.
  {
    file: 'test/support/webhook-receiver.ts',
    duration: 'ms',
    count: 1,
    why: 'the sleep helper (its callers are checked)',
  },
  {
    file: 'test/integration/support.ts',
    duration: 'ms',
    count: 1,
    why: 'the sleep helper of the integration tests (its callers are checked)',
  },
  // A peer's behaviour, not the test's wait: a test sets `delayMs` to make the receiver slow
  // (slower than WEBHOOK_TIMEOUT_MS, or still answering when a worker is stopped), and waits for
  // what the service does about it.
  {
    file: 'test/support/webhook-receiver.ts',
    duration: 'reply.delayMs ?? 0',
    count: 1,
    why: 'a slow receiver answers after the delay the test gave it',
  },
  // The chaos project's two load cadences (docs/tests.md, "Rules"): neither makes a test wait for
  // time to pass; each spaces out what is sent while something else runs its course.
  {
    file: 'test/chaos/sigterm.e2e-spec.ts',
    duration: '100',
    count: 1,
    why:
      "the load balancer's health-check period: its 100 ms between probes are how long new " +
      'requests keep arriving after SIGTERM, which the drain must answer; the test waits for ' +
      'the process to exit, not for the probes',
  },
  {
    file: 'test/chaos/postgres-outage.e2e-spec.ts',
    duration: '100',
    count: 1,
    why:
      'the load during the 10 s outage: three requests every 100 ms, each of which must be ' +
      'answered 503 fast; the outage is real and keeps its length',
  },
];

interface Wait {
  file: string;
  line: number;
  /** The call as written, on one line. */
  call: string;
  duration: string;
  /** Its value in ms, or null when it is computed. */
  ms: number | null;
}

/** Every .ts and .js file under `dir`, relative to ROOT with `/`. */
function testFiles(dir = TEST_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.(ts|js)$/.test(name) ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

const parse = (file: string, text: string) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** `const NAME = <number>` anywhere in a file (`POLL_INTERVAL_MS = 25`). */
function numericConstants(source: ts.SourceFile): Map<string, number> {
  const constants = new Map<string, number>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isNumericLiteral(node.initializer) &&
      ts.isVariableDeclarationList(node.parent) &&
      node.parent.flags & ts.NodeFlags.Const
    ) {
      constants.set(node.name.text, Number(node.initializer.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return constants;
}

/** The value of a duration made of numbers and known constants; null when it is computed. */
function valueOf(node: ts.Expression, constants: Map<string, number>): number | null {
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isParenthesizedExpression(node)) return valueOf(node.expression, constants);
  if (ts.isIdentifier(node)) return constants.get(node.text) ?? null;
  if (ts.isBinaryExpression(node)) {
    const left = valueOf(node.left, constants);
    const right = valueOf(node.right, constants);
    if (left === null || right === null) return null;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.PlusToken:
        return left + right;
      case ts.SyntaxKind.MinusToken:
        return left - right;
      case ts.SyntaxKind.AsteriskToken:
        return left * right;
      case ts.SyntaxKind.SlashToken:
        return left / right;
      default:
        return null;
    }
  }
  return null;
}

/** Whether a timer's callback rejects or aborts: a deadline, not a wait. */
function isDeadline(callback: ts.Expression | undefined): boolean {
  if (!callback || !(ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
    return false;
  }
  let rejects = false;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      if (name === 'reject' || name === 'abort') rejects = true;
    }
    if (!rejects) ts.forEachChild(node, visit);
  };
  visit(callback.body);
  return rejects;
}

/** Every wait for time to pass in one file's text (`constants`: those declared elsewhere too). */
function waitsIn(file: string, text: string, constants: Map<string, number> = new Map()): Wait[] {
  const source = parse(file, text);
  const known = new Map([...constants, ...numericConstants(source)]);
  const waits: Wait[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const global =
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        ['globalThis', 'global', 'window'].includes(callee.expression.text);
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee) && (global || callee.name.text === 'waitForTimeout')
          ? callee.name.text
          : '';
      let duration: ts.Expression | undefined;
      let isWait = false;
      if (name === 'sleep' || name === 'waitForTimeout') {
        duration = node.arguments[0];
        isWait = true;
      } else if (name === 'setTimeout') {
        const [first, second] = node.arguments;
        const callback =
          second !== undefined &&
          (ts.isArrowFunction(first) ||
            ts.isFunctionExpression(first) ||
            (ts.isIdentifier(first) && !known.has(first.text)));
        if (callback) {
          // setTimeout(callback, ms): a wait unless it is a deadline.
          duration = second;
          isWait = !isDeadline(first);
        } else {
          // `await setTimeout(ms)` from node:timers/promises.
          duration = first;
          isWait = true;
        }
      }
      if (isWait) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        waits.push({
          file,
          line: line + 1,
          call: node.getText(source).replace(/\s+/g, ' '),
          // A timer without a delay fires at once (0 ms).
          duration: duration ? duration.getText(source) : '0',
          ms: duration ? valueOf(duration, known) : 0,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return waits;
}

/** The waits that break the rule, as `file:line: call`, ALLOWED left out; and stale entries. */
function fixedWaits(
  waits: Wait[],
  allowed: Allowed[] = ALLOWED,
): { offending: string[]; stale: string[] } {
  const tooLong = waits.filter((wait) => wait.ms === null || wait.ms >= LIMIT_MS);
  const matches = (entry: Allowed, wait: Wait) =>
    wait.file === entry.file && wait.duration === entry.duration;
  const stale = allowed
    .filter((entry) => tooLong.filter((wait) => matches(entry, wait)).length !== entry.count)
    .map(
      (entry) =>
        `${entry.file}: ${entry.count} wait(s) of ${entry.duration} allowed, ` +
        `${tooLong.filter((wait) => matches(entry, wait)).length} found`,
    );
  const offending = tooLong
    .filter((wait) => !allowed.some((entry) => matches(entry, wait)))
    .map(
      (wait) =>
        `${wait.file}:${wait.line}: ${wait.call} (${wait.ms === null ? 'computed' : `${wait.ms} ms`})`,
    );
  return { offending, stale };
}

/** Every wait in test/, constants resolved across the files (a constant is imported by name). */
function findWaitsInTests(): Wait[] {
  const files = testFiles().map((file) => ({
    file,
    text: readFileSync(join(ROOT, file), 'utf8'),
  }));
  const declared = new Map<string, Set<number>>();
  for (const { file, text } of files) {
    for (const [name, value] of numericConstants(parse(file, text))) {
      declared.set(name, (declared.get(name) ?? new Set()).add(value));
    }
  }
  // A name declared with two values in two files is not known.
  const constants = new Map(
    [...declared].filter(([, values]) => values.size === 1).map(([name, [value]]) => [name, value]),
  );
  return files.flatMap(({ file, text }) => waitsIn(file, text, constants));
}

let found: Wait[] | undefined;
/** findWaitsInTests(), read once for the file's tests. */
const waitsInTests = (): Wait[] => (found ??= findWaitsInTests());

describe('No fixed wait of 100 ms or more in test/ (docs/tests.md, "Rules")', () => {
  it('finds the waits of test/ (sanity check of the walk)', () => {
    const waits = waitsInTests();
    expect(waits.length).toBeGreaterThan(30);
    // The house's poll: eventually() sleeps POLL_INTERVAL_MS, read as 25 ms.
    expect(waits).toContainEqual(
      expect.objectContaining({
        file: 'test/support/webhook-receiver.ts',
        duration: 'POLL_INTERVAL_MS',
        ms: 25,
      }),
    );
  });

  it('has none but the allowed ones, and every allowed one is still there', () => {
    expect(fixedWaits(waitsInTests())).toEqual({ offending: [], stale: [] });
  });

  it('would catch a fixed wait of 100 ms or more, written any way, and a stale allowance', () => {
    const made = [
      'const SETTLE_MS = 100;',
      'const POLL_MS = 25;',
      'async function check(page: { waitForTimeout(ms: number): Promise<void> }, n: number) {',
      '  await new Promise((resolve) => setTimeout(resolve, 100)); // past the TTL',
      '  await sleep(1_000);',
      '  await sleep(n * 1_000 + 100);',
      '  await sleep(3 * SETTLE_MS);',
      '  await setTimeout(250);',
      '  await page.waitForTimeout(500);',
      '  await new Promise((resolve) => globalThis.setTimeout(() => resolve(undefined), 200));',
      '  await sleep(POLL_MS);',
      '  await sleep(2 * POLL_MS);',
      '  await new Promise((_, reject) => setTimeout(() => reject(new Error("late")), 5_000));',
      '  // await sleep(5_000);',
      "  const text = 'sleep(5_000)';",
      '  jest.setTimeout(60_000);',
      '  return text;',
      '}',
    ].join('\n');
    const waits = waitsIn('test/made-up.ts', made);
    expect(fixedWaits(waits, [])).toEqual({
      offending: [
        'test/made-up.ts:4: setTimeout(resolve, 100) (100 ms)',
        'test/made-up.ts:5: sleep(1_000) (1000 ms)',
        'test/made-up.ts:6: sleep(n * 1_000 + 100) (computed)',
        'test/made-up.ts:7: sleep(3 * SETTLE_MS) (300 ms)',
        'test/made-up.ts:8: setTimeout(250) (250 ms)',
        'test/made-up.ts:9: page.waitForTimeout(500) (500 ms)',
        'test/made-up.ts:10: globalThis.setTimeout(() => resolve(undefined), 200) (200 ms)',
      ],
      stale: [],
    });
    // An allowance covers exactly its count of waits, and one that matches none is stale.
    const allowance = (duration: string, count: number) => ({
      file: 'test/made-up.ts',
      duration,
      count,
      why: 'made up',
    });
    expect(fixedWaits(waits, [allowance('1_000', 1), allowance('3_000', 1)]).stale).toEqual([
      'test/made-up.ts: 1 wait(s) of 3_000 allowed, 0 found',
    ]);
  });
});
