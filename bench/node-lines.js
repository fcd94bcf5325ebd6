'use strict';

/**
 * The benchmark's five target rows on two Node.js lines in one run (docs/performance.md, "Node.js
 * 24 beside 20"): each scenario runs under one line, then under the other (alternating which goes
 * first, scenario by scenario), with every server of that scenario — ours and the reference — on
 * that line. Prints one table of the ratios side by side. RESULTS.md keeps the last scenario run.
 *
 *   node bench/node-lines.js <node binary A> <node binary B> [scenario …]
 *
 * Default scenarios: groups sessions session-create webhooks (the five targets).
 */

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [first, second, ...named] = process.argv.slice(2);
if (!first || !second) {
  console.error('usage: node bench/node-lines.js <node A> <node B> [scenario …]');
  process.exit(2);
}
const scenarios = named.length > 0 ? named : ['groups', 'sessions', 'session-create', 'webhooks'];
const versionOf = (binary) => spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
const lines = [first, second].map((binary) => ({ binary, version: versionOf(binary) }));

const results = [];
scenarios.forEach((scenario, index) => {
  const order = index % 2 === 0 ? lines : [...lines].reverse();
  for (const { binary, version } of order) {
    const summary = path.join(os.tmpdir(), `bench-node-lines-${process.pid}.json`);
    console.log(`\n### ${scenario} on Node ${version}`);
    const run = spawnSync(binary, [path.join(__dirname, 'run.js'), scenario], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_SUMMARY_JSON: summary },
    });
    if (run.status !== 0 || !fs.existsSync(summary)) {
      results.push({ scenario, version, error: `exit ${run.status}` });
      continue;
    }
    const { machine, rows } = JSON.parse(fs.readFileSync(summary, 'utf8'));
    fs.rmSync(summary);
    for (const row of rows) results.push({ ...row, version, load: machine.loadAverage });
  }
});

const titles = [...new Set(results.filter((row) => row.title).map((row) => row.title))];
const cell = (title, version) => {
  const row = results.find((result) => result.title === title && result.version === version);
  if (!row) return '—';
  const rps = (value) => Math.round(value).toLocaleString('en-US');
  return `${rps(row.ours)} / ${rps(row.reference)} = **${row.ratio.toFixed(2)}**${row.meetsTarget ? '' : ' (below)'}`;
};
const header = `| Row | Target | ${lines.map(({ version }) => `Node ${version}: ours / reference`).join(' | ')} |`;
console.log(`\n${header}\n|---|---|${lines.map(() => '---').join('|')}|`);
for (const title of titles) {
  const target = results.find((row) => row.title === title).target;
  console.log(
    `| ${title} | ${target} | ${lines.map(({ version }) => cell(title, version)).join(' | ')} |`,
  );
}
for (const failed of results.filter((row) => row.error)) {
  console.log(`FAILED: ${failed.scenario} on Node ${failed.version}: ${failed.error}`);
}
process.exitCode = results.some((row) => row.error) ? 1 : 0;
