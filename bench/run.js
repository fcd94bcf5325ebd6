'use strict';

/**
 * Runs every scenario in bench/scenarios/ (in file-name order), then writes bench/RESULTS.md and
 * prints the same summary. Exits 1 when a scenario fails (an error), never for a missed target.
 *
 *   npm run bench                      # builds first
 *   node bench/run.js [scenario …]     # only the named scenarios (file names without .js)
 */

const fs = require('node:fs');
const path = require('node:path');
const {
  RESULTS_FILE,
  formatMachine,
  machineInfo,
  markdownTable,
  stopAll,
  updateResultsSection,
} = require('./lib');

const SCENARIOS_DIR = path.join(__dirname, 'scenarios');

const fmtRps = (value) =>
  value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
const fmtMs = (value) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)}` : '—');

function loadScenarios(only) {
  return fs
    .readdirSync(SCENARIOS_DIR)
    .filter((file) => file.endsWith('.js'))
    .sort()
    .map((file) => ({ file, scenario: require(path.join(SCENARIOS_DIR, file)) }))
    .filter(({ file }) => only.length === 0 || only.includes(path.basename(file, '.js')));
}

/**
 * A scenario's summary rows: `result.rows` when it compares several pairs, else the result itself.
 * A row's `targetLabel` (e.g. "≤ 1.5" for a latency ratio) overrides the default "≥ target".
 */
const summaryRows = (result) => result.rows ?? [result];
const targetLabel = (row) => row.targetLabel ?? `≥ ${row.target}`;

function summaryTable(outcomes) {
  const rows = outcomes.flatMap(({ file, result, error }) => {
    if (error) {
      const message = error.message.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
      return [[path.basename(file, '.js'), 'ERROR', '', '', '', '', '', message]];
    }
    return summaryRows(result).map((row) => [
      row.title,
      fmtRps(row.ours.requestsPerSec),
      fmtRps(row.reference.requestsPerSec),
      row.ratio.toFixed(2),
      targetLabel(row),
      `${fmtMs(row.ours.latencyP50)} / ${fmtMs(row.ours.latencyP99)}`,
      `${fmtMs(row.reference.latencyP50)} / ${fmtMs(row.reference.latencyP99)}`,
      row.meetsTarget ? 'ok' : 'BELOW TARGET',
    ]);
  });
  return markdownTable(
    [
      'Scenario',
      'Ours req/s',
      'Reference req/s',
      'Ratio',
      'Target',
      'Ours p50 / p99 (ms)',
      'Reference p50 / p99 (ms)',
      'Status',
    ],
    rows,
  );
}

function scenarioSection({ scenario, result }) {
  const { settings } = result;
  const lines = [`## ${result.title}`];
  if (scenario.formatTable) lines.push('', scenario.formatTable(result));
  if (settings) {
    lines.push(
      '',
      (settings.rotated
        ? `Medians of ${settings.rounds} rounds, each measuring every server once in an order ` +
          'rotated round by round (each server equally often in each position); autocannon '
        : `Medians of ${settings.rounds} alternating rounds (reference, ours, …); autocannon `) +
        `${settings.connections} connections, ${settings.durationSeconds} s measured after a ` +
        `${settings.warmupSeconds} s warm-up that is discarded.`,
    );
  }
  for (const note of result.notes ?? []) lines.push('', `Note: ${note}`);
  return lines.join('\n');
}

async function main() {
  const only = process.argv.slice(2);
  const scenarios = loadScenarios(only);
  if (scenarios.length === 0) throw new Error(`No scenario matches ${only.join(', ')}`);

  // Taken before the load starts: the load average shows whether something else was running.
  const machine = machineInfo();
  const outcomes = [];
  for (const { file, scenario } of scenarios) {
    console.log(`\n=== ${file} ===`);
    try {
      outcomes.push({ file, scenario, result: await scenario.run({ log: console.log }) });
    } catch (error) {
      console.error(`Scenario ${file} failed: ${error.stack ?? error.message}`);
      outcomes.push({ file, scenario, error });
    }
    await stopAll(); // whatever a failed scenario left running
  }

  const summary = [
    '## Summary',
    '',
    formatMachine(machine),
    '',
    summaryTable(outcomes),
    '',
    'Ratio = our req/s ÷ reference req/s, measured in the same run (see README.md), unless the ' +
      'row says it is a p50 latency ratio (target ≤).',
  ].join('\n');
  updateResultsSection('summary', summary);
  for (const outcome of outcomes) {
    const section = outcome.result
      ? scenarioSection(outcome)
      : `## ${outcome.scenario.id}\n\nFailed on ${machine.date}: ${outcome.error.message}`;
    updateResultsSection(`scenario-${outcome.scenario.id}`, section);
  }

  // For bench/node-lines.js: the summary rows as JSON, when asked.
  if (process.env.BENCH_SUMMARY_JSON) {
    const rows = outcomes.flatMap(({ file, result, error }) =>
      error
        ? [{ scenario: path.basename(file, '.js'), error: error.message }]
        : summaryRows(result).map((row) => ({
            scenario: path.basename(file, '.js'),
            title: row.title,
            ours: row.ours.requestsPerSec,
            reference: row.reference.requestsPerSec,
            ratio: row.ratio,
            target: targetLabel(row),
            meetsTarget: row.meetsTarget,
          })),
    );
    fs.writeFileSync(process.env.BENCH_SUMMARY_JSON, JSON.stringify({ machine, rows }, null, 2));
  }
  console.log(`\n${summary}\n`);
  for (const { result } of outcomes) {
    for (const row of result ? summaryRows(result) : []) {
      if (!row.meetsTarget) {
        console.log(
          `BELOW TARGET: ${row.title}: ratio ${row.ratio.toFixed(2)}, target ${targetLabel(row)}`,
        );
      }
    }
  }
  console.log(`Results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
  return outcomes.some((outcome) => outcome.error) ? 1 : 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers …`);
    stopAll().finally(() => process.exit(130));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (error) => {
    console.error(error.stack ?? error.message);
    await stopAll();
    process.exitCode = 1;
  },
);
