/** CLI output: with --json one JSON object on stdout; otherwise readable lines. */
export function printResult(json: boolean, value: unknown, lines: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${lines.join('\n')}\n`);
}

/** An operator mistake: one line on stderr, exit code 1. */
export function failCommand(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}
