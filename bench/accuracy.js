'use strict';

/**
 * How accurate group metrics are under their differentially private releases (docs/metrics.md,
 * "Accuracy"): the service's own release and answer code (dist/metrics/releases), run on
 * synthetic participants, at ε = 1 and the default floor of 3 speakers. Writes the table to
 * bench/RESULTS.md (section `accuracy`) and prints it.
 *
 *   npm run build && node bench/accuracy.js            # 2,000 releases a row
 *   BENCH_RELEASES=5000 node bench/accuracy.js
 *
 * Scores: for each row, RELEASES times: draw the participants' values (a seeded generator, so the
 * data are the same every run; the noise is crypto's, as in production), release them as one
 * cell (or as cells of 10 participants, merged as a period merges them), answer, and compare with
 * the exact mean and PostgreSQL-style continuous median of the same values. The 95th percentile
 * of the error's size is reported. Words: for each count of speakers around the threshold, the share of
 * RELEASES cells in which a word that many participants gave is shown.
 */

const path = require('node:path');
const { markdownTable, updateResultsSection } = require('./lib');
// A seeded generator for the synthetic data only: the noise is the service's (crypto).
const { mulberry32: generator } = require('./seed');

const DIST = path.join(__dirname, '..', 'dist');
const { participantScore, releaseScores, scoreStatistics, SCORE_MECHANISM } = require(
  path.join(DIST, 'metrics', 'releases', 'score-release.js'),
);
const { releaseWords, wordThreshold, WORDS_PER_PARTICIPANT } = require(
  path.join(DIST, 'metrics', 'releases', 'word-release.js'),
);

const RELEASES = Number(process.env.BENCH_RELEASES ?? 2000);
const EPSILON = 100; // hundredths: ε = 1
const SPEAKERS = 3; // minWordSpeakers, the default

const DISTRIBUTIONS = {
  'bell-shaped: normal(60, 15), clipped': (random) => {
    const u = 1 - random();
    const v = random();
    return 60 + 15 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  },
  'uniform on [0, 100] (the bench seed; hardest for quantiles)': (random) => 100 * random(),
};

const percentile95 = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1];
};

function continuousMedian(sorted) {
  const position = 0.5 * (sorted.length - 1);
  const low = Math.floor(position);
  return sorted[low] + (position - low) * (sorted[Math.ceil(position)] - sorted[low]);
}

function scoreRow(draw, participants, cellSize, seed) {
  const random = generator(seed);
  const avgErrors = [];
  const medianErrors = [];
  for (let i = 0; i < RELEASES; i++) {
    const values = Array.from({ length: participants }, () => participantScore(draw(random)));
    const merged = {
      participants: 0,
      noisySum: 0,
      noisyBins: new Array(SCORE_MECHANISM.bins).fill(0),
      binNoiseVariance: 0,
    };
    for (let from = 0; from < participants; from += cellSize) {
      const release = releaseScores(values.slice(from, from + cellSize), EPSILON);
      merged.participants += release.participants;
      merged.noisySum += release.noisySum;
      merged.binNoiseVariance += release.binNoiseVariance;
      release.noisyBins.forEach((count, bin) => (merged.noisyBins[bin] += count));
    }
    const stats = scoreStatistics(merged);
    const exact = values.map((value) => value / 100).sort((a, b) => a - b);
    const mean = exact.reduce((sum, value) => sum + value, 0) / exact.length;
    avgErrors.push(Math.abs(stats.avgMhci - mean));
    medianErrors.push(Math.abs(stats.percentile50Mhci - continuousMedian(exact)));
  }
  return { avg: percentile95(avgErrors), median: percentile95(medianErrors) };
}

const TARGETS = { 200: { avg: 3, median: 6 }, 1000: { avg: 0.6, median: 2 } };

function scoresTable() {
  const rows = [];
  let seed = 1;
  for (const [name, draw] of Object.entries(DISTRIBUTIONS)) {
    for (const [union, cellSize] of [
      ['one cell', null],
      ['cells of 10', 10],
    ]) {
      for (const participants of [50, 200, 1000]) {
        const { avg, median } = scoreRow(draw, participants, cellSize ?? participants, seed++);
        const target = TARGETS[participants];
        const status =
          !target || cellSize
            ? '—'
            : avg <= target.avg && median <= target.median
              ? `meets ±${target.avg} / ±${target.median}`
              : `MISSES ±${target.avg} / ±${target.median}`;
        rows.push([name, `${participants} (${union})`, avg.toFixed(2), median.toFixed(2), status]);
      }
    }
  }
  return markdownTable(
    [
      'MHCI of the participants',
      'participants (cells)',
      'avgMhci: p95 of the error',
      'percentile50Mhci: p95 of the error',
      'target (one cell)',
    ],
    rows,
  );
}

function wordsTable() {
  const rows = [];
  for (const speakers of [1, SPEAKERS]) {
    const threshold = wordThreshold(EPSILON, speakers);
    let half = null;
    const shown = [];
    for (let count = threshold - 4; count <= threshold + 4; count++) {
      const cell = Array.from({ length: count }, () => ['tired']);
      let released = 0;
      for (let i = 0; i < RELEASES; i++) {
        if (releaseWords(cell, EPSILON, speakers).length > 0) released += 1;
      }
      const share = released / RELEASES;
      shown.push(`${count}: ${(100 * share).toFixed(1)} %`);
      if (half === null && share >= 0.5) half = count;
    }
    rows.push([String(speakers), String(threshold), String(half), shown.join(', ')]);
  }
  return markdownTable(
    [
      'minWordSpeakers',
      'threshold (noisy count)',
      'speakers shown ≥ half the time',
      'shown, by speakers',
    ],
    rows,
  );
}

function main() {
  const started = Date.now();
  const scores = scoresTable();
  const words = wordsTable();
  const section = [
    '## Accuracy of group metrics (differentially private releases)',
    '',
    `ε = 1, ${RELEASES.toLocaleString('en-US')} releases a row, the service's own release code ` +
      `(${SCORE_MECHANISM.bins} bins, the sum ${SCORE_MECHANISM.sumShare.numerator}/` +
      `${SCORE_MECHANISM.sumShare.denominator} of ε; ${WORDS_PER_PARTICIPANT} words a participant, ` +
      `δ = 10⁻⁶), \`node bench/accuracy.js\`, ${new Date().toISOString()}.`,
    '',
    scores,
    '',
    'Words: a word given by that many participants of a cell (each participant gives at most ' +
      `${WORDS_PER_PARTICIPANT}), released in how many of the cells:`,
    '',
    words,
    '',
    `Took ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  ].join('\n');
  updateResultsSection('accuracy', section);
  console.log(section);
}

main();
