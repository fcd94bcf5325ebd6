"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.printResult = printResult;
exports.failCommand = failCommand;
/** CLI output: with --json one JSON object on stdout; otherwise readable lines. */
function printResult(json, value, lines) {
    process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${lines.join('\n')}\n`);
}
/** An operator mistake: one line on stderr, exit code 1. */
function failCommand(message) {
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
}
//# sourceMappingURL=cli-output.js.map