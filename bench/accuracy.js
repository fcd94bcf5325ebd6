'use strict';

/**
 * How accurate group metrics are, measured THROUGH THE API (docs/metrics.md, "Accuracy"): real
 * groups with known data, released by the service's own releaser and answered by its own reader,
 * at the default budget (ε_year 24, monthly or weekly windows). Writes the tables to
 * bench/RESULTS.md (section `accuracy`) and prints them.
 *
 *   npm run build && node bench/accuracy.js          # 200 trials a row
 *   BENCH_TRIALS=400 node bench/accuracy.js
 *
 * Seeding (SQL, straight into the database, as ingestion leaves it): per row an enterprise of its
 * own (so no budget or window is shared), its window (`metrics_window`), ε_year 24 and maxMargin
 * 100 (so that nothing is withheld), one group and N participants, each with one completed
 * session in each of TRIALS consecutive past windows (months from 2000-01, or ISO weeks from
 * 2000-01-03). Each window is one independent release: a trial. A participant in every window
 * spends exactly her yearly budget (docs/metrics.md, "The budget"), so nobody is left out (checked:
 * resultsLeftOut 0). The sessions are written with what ingestion writes beside them: their
 * `cohort_pending` rows (both series), the per-day counts (`group_day_counts`) and, since windows
 * are made at ingestion, the windows themselves, not yet released, with the kind and budget the
 * enterprise has. Scores: normal(60, 15) clipped to [0, 100], in hundredths, from a seeded
 * generator (the same data every run; the noise is the service's, from crypto).
 *
 * Then the service (`node dist/main`, as the scenarios start it, workers off) is started and ONE
 * request `GET /metrics/groups/{id}/mhci?groupBy=month&accuracy=true` (`week` for weekly rows)
 * releases every window and answers every trial. Per trial the error of `avgMhci` and
 * `percentile50Mhci` against the exact mean and PostgreSQL's `percentile_cont(0.5)` of the same
 * participants' values in that window (SQL over the stored sessions), whether the answer's 95 %
 * intervals cover them, and its `accuracy.margin`. Then the enterprise's maxMargin is set back to
 * its default (10) and the same request tells what a default enterprise answers (the releases are
 * not drawn again: the values must be the same, or null).
 *
 * Words: monthly windows of N = 200 and 1,000 participants where a given word is said by a
 * number of them around the threshold (`accuracy.speakersNeeded`) and the others each say a word
 * of their own; the share of trials in which the word shows. Several such words, each with its
 * own number of speakers, share a window (each participant gives one word, WORDS_PER_RELEASE):
 * partition selection draws each word's noise alone and compares its own count to the
 * threshold, so a word's chance does not depend on the others.
 *
 * Environment: BENCH_DATABASE_URL (the benchmark database; its "Benchmark Accuracy …" enterprises
 * are deleted and re-created), BENCH_TRIALS (default 200), BENCH_WORD_TRIALS (default TRIALS).
 */

const { Client } = require('pg');
const {
  freePort,
  httpRequest,
  markdownTable,
  ourServiceOptions,
  startProcess,
  stopAll,
  stopProcess,
  updateResultsSection,
} = require('./lib');
// A seeded generator for the data only: the noise is the service's (crypto).
const { createGenerator, hashApiKey, loadDist, mulberry32, prepareSchema } = require('./seed');

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const TRIALS = positiveInteger(process.env.BENCH_TRIALS, 200);
const WORD_TRIALS = positiveInteger(process.env.BENCH_WORD_TRIALS, TRIALS);
const ENTERPRISE_PREFIX = 'Benchmark Accuracy Enterprise';
const EPSILON_YEAR = 24;
/** The bench rows' maxMargin: nothing withheld. The default (10) is asked afterwards. */
const BENCH_MAX_MARGIN = 100;
const SEED = 0x616363; // "acc"
/** Rows released and read at once (each its own enterprise, so its own lock). */
const CONCURRENCY = 2;

const { apiKeyPrefix } = loadDist('common/ids.js');
const { releaseRho, wordReleaseDelta, BUDGET } = loadDist('metrics/windows/budget.js');
const { scoreNoise, windowWordThreshold } = loadDist('metrics/windows/window-release.js');
const { PRIVACY_FLOOR } = loadDist('common/privacy-model.js');

/** Score rows: participants and window; targets (p95 |error| avg / median) from the issue. */
const SCORE_ROWS = [
  ...[12, 40, 100, 200, 1000].map((participants) => ({ kind: 'month', participants })),
  ...[12, 40, 100, 200, 1000].map((participants) => ({ kind: 'week', participants })),
];
const TARGETS = {
  month: { 100: [5, 10], 200: [2.5, 5], 1000: [0.5, 1.5] },
  week: { 1000: [1.5, 4] },
};
/**
 * The second version's figures (docs/metrics.md "Accuracy" before this change, and issue 46's,
 * measured through the API at ε = 1 per sealed cell): p95 |error| of avgMhci / percentile50Mhci.
 */
const SECOND_VERSION = {
  12: '±17.5 / ±31 (daily cells)',
  40: '±24 / ±38 read by week; ±13 / — read by month',
  200: '±5.2 / ±10.6',
  1000: '±1.0 / ±2.5',
};
/** Speakers of the probe words, around the threshold (added to it). */
const WORD_OFFSETS = [-9, -6, -3, 0, 3, 6, 9];
const WORD_PARTICIPANTS = [200, 1000];

function positiveInteger(value, fallback) {
  const number = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(number) && number > 0
    ? number
    : fallback;
}

/** normal(60, 15) clipped to [0, 100], in whole hundredths (as a stored mhci). */
function bellScore(random) {
  const u = 1 - random();
  const v = random();
  const x = 60 + 15 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.round(Math.min(Math.max(x, 0), 100) * 100) / 100;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
};
const share = (flags) => flags.filter(Boolean).length / flags.length;
const pct = (value) => `${(100 * value).toFixed(1)} %`;
const fmt = (value, digits = 2) => (value === null ? '—' : value.toFixed(digits));

/**
 * The SQL of a row's windows: trial t's first day, and the timestamp of its sessions (plus one
 * second per participant): the 10th of month t at noon, or Wednesday noon of ISO week t.
 */
const WINDOW_SQL = {
  month: {
    firstDay: (t) => `(date '2000-01-01' + ${t} * interval '1 month')::date`,
    lastDay: (t) =>
      `(date '2000-01-01' + (${t} + 1) * interval '1 month' - interval '1 day')::date`,
    completedAt: (t) => `timestamptz '2000-01-10 12:00:00+00' + ${t} * interval '1 month'`,
    key: `to_char(date_trunc('month', s.completed_at AT TIME ZONE 'UTC'), 'YYYY-MM')`,
  },
  week: {
    firstDay: (t) => `(date '2000-01-03' + 7 * ${t})`,
    lastDay: (t) => `(date '2000-01-03' + 7 * ${t} + 6)`,
    completedAt: (t) => `timestamptz '2000-01-05 12:00:00+00' + ${t} * interval '7 days'`,
    key: `to_char(date_trunc('week', s.completed_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`,
  },
};

/**
 * One row's enterprise, group, participants and sessions, as ingestion leaves them before the
 * windows are released. `values[t * N + n]` is participant n's mhci in trial t; `wordCounts[n]`
 * her sealed word counts (the same every trial), or none.
 */
async function seedRow(client, { index, label, kind, participants, trials, values, wordCounts }) {
  const apiKey = createGenerator(SEED + index).apiKey();
  const sql = WINDOW_SQL[kind];
  await client.query('BEGIN');
  try {
    // Consistent by construction: skip the per-row foreign-key triggers when allowed (superuser).
    await client.query('SAVEPOINT replica');
    try {
      await client.query("SET LOCAL session_replication_role = 'replica'");
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT replica');
    }
    const enterpriseId = (
      await client.query(
        `INSERT INTO enterprises (name, metrics_window, epsilon_year, max_margin)
         VALUES ($1, $2, $3, $4) RETURNING id`,
        [`${ENTERPRISE_PREFIX} ${label}`, kind, EPSILON_YEAR, BENCH_MAX_MARGIN],
      )
    ).rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKeyPrefix(apiKey),
      hashApiKey(apiKey),
    ]);
    const groupId = Number(
      (
        await client.query(
          `INSERT INTO groups (enterprise_id, name, key, invite_code, consent_required, credits,
                               requested_privacy)
           VALUES ($1, $2, $3, $4, false, 0, '{}') RETURNING group_id`,
          [
            enterpriseId,
            `Accuracy ${label}`,
            createGenerator(SEED + 1000 + index).groupKey(),
            `accbench${index}`,
          ],
        )
      ).rows[0].group_id,
    );
    await client.query(
      `INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
       SELECT $1, 'ok_' || md5('bench-accuracy/' || $2 || '/' || n)
                     || left(md5('bench-accuracy/q/' || $2 || '/' || n), 16),
              'x', 'accuracy' || lpad(n::text, 6, '0')
         FROM generate_series(1, $3::int) n`,
      [enterpriseId, index, participants],
    );
    await client.query(
      `INSERT INTO memberships (participant_id, group_id)
       SELECT id, $2 FROM participants WHERE enterprise_id = $1`,
      [enterpriseId, groupId],
    );
    // Session ord (1-based) is participant ((ord - 1) % N) + 1's in trial (ord - 1) / N.
    await client.query(
      `WITH p AS (
         SELECT id, row_number() OVER (ORDER BY email_hash) AS n
           FROM participants WHERE enterprise_id = $1),
       v AS (
         SELECT ord, mhci, ((ord - 1) % $3::int) + 1 AS n, (ord - 1) / $3::int AS t
           FROM unnest($4::float8[]) WITH ORDINALITY AS v(mhci, ord))
       INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                             return_url, created_at, completed_at, version, mhci, word_counts)
       SELECT 'ses_acc' || lpad($5::text, 3, '0') || lpad(v.ord::text, 18, '0'), $1, p.id, $2,
              'completed', 'https://example.com/x', c.at - interval '5 minutes', c.at, 'v1.0.0',
              v.mhci, ($6::text[])[v.n::int]
         FROM v JOIN p ON p.n = v.n,
              LATERAL (SELECT ${sql.completedAt('v.t')} + v.n * interval '1 second' AS at) c`,
      [enterpriseId, groupId, participants, values, index, wordCounts ?? null],
    );
    // What ingestion writes beside each result (CohortCellsRepository.addCompleted): pending in
    // both series, one more in its day's count.
    await client.query(
      `INSERT INTO cohort_pending (session_id, series, group_id)
       SELECT s.session_id, series, s.group_id
         FROM sessions s, unnest(ARRAY['scores', 'words']) AS series
        WHERE s.group_id = $1`,
      [groupId],
    );
    await client.query(
      `INSERT INTO group_day_counts (group_id, day, sessions)
       SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date, count(*)
         FROM sessions WHERE group_id = $1 GROUP BY 1, 2`,
      [groupId],
    );
    // …and the windows it makes (WindowReleaser.addCompleted), not released yet.
    await client.query(
      `INSERT INTO metric_windows (enterprise_id, kind, first_day, last_day, epsilon_year)
       SELECT $1, $2, ${sql.firstDay('t')}, ${sql.lastDay('t')}, $3
         FROM generate_series(0, $4::int - 1) t`,
      [enterpriseId, kind, EPSILON_YEAR, trials],
    );
    await client.query('COMMIT');
    return { enterpriseId, groupId, apiKey };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Deletes the previous run's enterprises (cascading to everything of theirs). The ledger
 * (`metric_budget_spend`) has no index on `window_id`, so each deleted window's cascade would
 * scan the whole ledger (2,800 windows: about 130 s); an index on it exists for the length of this
 * transaction only, so the schema the service runs on stays its own.
 */
async function deletePrevious(client) {
  await client.query('BEGIN');
  try {
    await client.query(
      'CREATE INDEX accuracy_bench_spend_window_idx ON metric_budget_spend (window_id)',
    );
    await client.query(`DELETE FROM enterprises WHERE name LIKE $1 || ' %'`, [ENTERPRISE_PREFIX]);
    await client.query('DROP INDEX accuracy_bench_spend_window_idx');
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The exact mean and percentile_cont(0.5) of each window's values, by the answer's keys. */
async function truthOf(client, { kind, groupId }) {
  const { rows } = await client.query(
    `SELECT ${WINDOW_SQL[kind].key} AS key, count(*)::int AS n, avg(s.mhci)::float8 AS mean,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY s.mhci) AS median
       FROM sessions s WHERE s.group_id = $1 GROUP BY 1 ORDER BY 1`,
    [groupId],
  );
  return new Map(rows.map((row) => [row.key, row]));
}

async function getJson(baseUrl, url, apiKey) {
  const response = await httpRequest(`${baseUrl}${url}`, {
    headers: { 'x-api-key': apiKey },
    timeoutMs: 900_000,
  });
  const text = response.body.toString('utf8');
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

const unit = (kind) => (kind === 'month' ? 'month' : 'week');

/** One score row's trials: errors, coverage, margins, and what the default maxMargin answers. */
async function measureScores(client, baseUrl, row) {
  const url = `/metrics/groups/${row.groupId}/mhci?groupBy=${unit(row.kind)}&accuracy=true`;
  const started = Date.now();
  const answer = await getJson(baseUrl, url, row.apiKey);
  const seconds = (Date.now() - started) / 1000;
  const truth = await truthOf(client, row);
  const keys = Object.keys(answer);
  if (keys.length !== row.trials || truth.size !== row.trials) {
    throw new Error(`${row.label}: ${keys.length} periods answered, ${truth.size} seeded`);
  }
  const trials = keys.map((key) => {
    const { value, accuracy } = answer[key];
    const exact = truth.get(key);
    if (!exact || exact.n !== row.participants) throw new Error(`${row.label} ${key}: no truth`);
    if (accuracy.participants !== row.participants || accuracy.windows !== 1) {
      throw new Error(`${row.label} ${key}: accuracy ${JSON.stringify(accuracy)}`);
    }
    if (value === null) return { key, withheld: accuracy.reason, accuracy };
    const [avgLow, avgHigh] = accuracy.intervals.avgMhci;
    const [medianLow, medianHigh] = accuracy.intervals.percentile50Mhci;
    return {
      key,
      value,
      accuracy,
      avgError: value.avgMhci - exact.mean,
      medianError: value.percentile50Mhci - exact.median,
      avgWidth: avgHigh - avgLow,
      medianWidth: medianHigh - medianLow,
      avgCovered: avgLow <= exact.mean && exact.mean <= avgHigh,
      medianCovered: medianLow <= exact.median && exact.median <= medianHigh,
    };
  });
  const answered = trials.filter((trial) => trial.value);
  // What an enterprise at the default maxMargin is answered: the same releases, read again.
  await client.query('UPDATE enterprises SET max_margin = $2 WHERE id = $1', [
    row.enterpriseId,
    BUDGET.defaultMaxMargin,
  ]);
  const byDefault = await getJson(baseUrl, url, row.apiKey);
  let redrawn = 0;
  const defaultReasons = new Map();
  for (const trial of trials) {
    const { value, accuracy } = byDefault[trial.key];
    if (value === null) {
      defaultReasons.set(accuracy.reason, (defaultReasons.get(accuracy.reason) ?? 0) + 1);
    } else if (JSON.stringify(value) !== JSON.stringify(trial.value)) {
      redrawn += 1;
    }
  }
  const wordcloud = await getJson(
    baseUrl,
    `/metrics/groups/${row.groupId}/wordcloud?groupBy=${unit(row.kind)}&accuracy=true`,
    row.apiKey,
  );
  const firstCloud = Object.values(wordcloud)[0];
  return {
    ...row,
    seconds,
    answered: answered.length,
    withheld: trials.length - answered.length,
    avgP95: answered.length
      ? percentile(
          answered.map((t) => Math.abs(t.avgError)),
          0.95,
        )
      : null,
    medianP95: answered.length
      ? percentile(
          answered.map((t) => Math.abs(t.medianError)),
          0.95,
        )
      : null,
    avgBias: answered.length
      ? answered.reduce((sum, t) => sum + t.avgError, 0) / answered.length
      : null,
    medianBias: answered.length
      ? answered.reduce((sum, t) => sum + t.medianError, 0) / answered.length
      : null,
    avgCoverage: answered.length ? share(answered.map((t) => t.avgCovered)) : null,
    medianCoverage: answered.length ? share(answered.map((t) => t.medianCovered)) : null,
    avgWidth: answered.length
      ? percentile(
          answered.map((t) => t.avgWidth),
          0.5,
        )
      : null,
    medianWidth: answered.length
      ? percentile(
          answered.map((t) => t.medianWidth),
          0.5,
        )
      : null,
    margin: percentile(
      trials.map((t) => t.accuracy.margin),
      0.5,
    ),
    leftOut: trials.reduce((sum, t) => sum + t.accuracy.resultsLeftOut, 0),
    budgetShare: trials[0].accuracy.budgetShare,
    epsilon: trials[0].accuracy.epsilon,
    defaultNull: [...defaultReasons.values()].reduce((a, b) => a + b, 0),
    defaultReasons: [...defaultReasons].map(([reason, n]) => `${reason} ${n}`).join(', '),
    redrawn,
    wordcloud:
      firstCloud.value === null
        ? `null (${firstCloud.accuracy.reason})`
        : JSON.stringify(firstCloud.value),
  };
}

/** Packs the probe words' speaker counts into windows of `participants` (others say their own). */
function packProbes(speakers, participants) {
  const windows = [];
  for (const count of speakers) {
    const fits = windows.find((w) => w.reduce((a, b) => a + b, 0) + count <= participants - 10);
    if (fits) fits.push(count);
    else windows.push([count]);
  }
  return windows;
}

/** The share of trials in which each probe word showed, per window size and speaker count. */
async function measureWords(baseUrl, row) {
  const url = `/metrics/groups/${row.groupId}/wordcloud?groupBy=month&accuracy=true`;
  const answer = await getJson(baseUrl, url, row.apiKey);
  const keys = Object.keys(answer);
  if (keys.length !== row.trials) throw new Error(`${row.label}: ${keys.length} periods`);
  const shown = new Map(row.probes.map((probe) => [probe.word, 0]));
  const needed = new Set();
  let leftOut = 0;
  for (const key of keys) {
    const { value, accuracy } = answer[key];
    needed.add(accuracy.speakersNeeded);
    leftOut += accuracy.resultsLeftOut;
    for (const probe of row.probes) {
      if (value && value[probe.word] !== undefined)
        shown.set(probe.word, shown.get(probe.word) + 1);
    }
  }
  return row.probes.map((probe) => ({
    participants: row.participants,
    speakers: probe.speakers,
    shown: shown.get(probe.word) / keys.length,
    speakersNeeded: [...needed].join(', '),
    leftOut,
  }));
}

/** Runs `jobs` at most `limit` at a time, the largest `sizes` first; results in `jobs` order. */
async function inParallel(jobs, sizes, limit) {
  const order = jobs.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a]);
  const results = new Array(jobs.length);
  const worker = async () => {
    while (order.length > 0) {
      const i = order.shift();
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

async function main() {
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  await prepareSchema(databaseUrl);
  const [port, opsPort] = await Promise.all([freePort(), freePort()]);
  // Workers off: the releases are those the first read makes (the sweep would make the same).
  const options = ourServiceOptions({
    port,
    opsPort,
    databaseUrl,
    env: { RUN_WORKERS: 'false', DB_POOL_SIZE: '10' },
  });
  const { loadConfig } = loadDist('config/config.js');
  const { PiiCipher } = loadDist('common/crypto/pii-cipher.js');
  const { sealJson } = loadDist('sessions/transcript-codec.js');
  const config = loadConfig(options.env);
  const cipher = PiiCipher.fromKeys(config.dataEncryptionKey, config.dataKeys);

  const monthRho = releaseRho('month', EPSILON_YEAR);
  const threshold = windowWordThreshold(
    monthRho,
    PRIVACY_FLOOR.defaultSpeakers,
    wordReleaseDelta('month'),
  );
  const probeSpeakers = WORD_OFFSETS.map((offset) => threshold + offset);

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  const scoreRows = [];
  const wordRows = [];
  let service;
  try {
    console.log(`Deleting the previous "${ENTERPRISE_PREFIX} …" enterprises …`);
    await deletePrevious(client);
    let index = 0;
    for (const { kind, participants } of SCORE_ROWS) {
      index += 1;
      const random = mulberry32(SEED + index);
      const values = Array.from({ length: TRIALS * participants }, () => bellScore(random));
      const label = `${kind}ly ${participants}`;
      const ids = await seedRow(client, {
        index,
        label,
        kind,
        participants,
        trials: TRIALS,
        values,
      });
      scoreRows.push({ label, kind, participants, trials: TRIALS, ...ids });
      console.log(
        `  seeded ${label}: ${TRIALS} ${kind}s × ${participants} participants (${elapsed()})`,
      );
    }
    for (const participants of WORD_PARTICIPANTS) {
      for (const speakers of packProbes(probeSpeakers, participants)) {
        index += 1;
        const random = mulberry32(SEED + index);
        // Participants 1… say the probe words (`w<speakers>`, in order), each other one a word
        // of her own; one session a trial, her counts the same each time (sealed as ingestion
        // stores them).
        const probes = speakers.map((count) => ({ word: `w${count}`, speakers: count }));
        const words = [];
        for (const probe of probes) for (let i = 0; i < probe.speakers; i++) words.push(probe.word);
        while (words.length < participants) words.push(`own${words.length + 1}`);
        const wordCounts = words.map((word) => sealJson(cipher, { [word]: 1 }));
        const values = Array.from({ length: WORD_TRIALS * participants }, () => bellScore(random));
        const label = `words ${participants} (${speakers.join(', ')})`;
        const ids = await seedRow(client, {
          index,
          label,
          kind: 'month',
          participants,
          trials: WORD_TRIALS,
          values,
          wordCounts,
        });
        wordRows.push({ label, participants, trials: WORD_TRIALS, probes, ...ids });
        console.log(`  seeded ${label}: ${WORD_TRIALS} months (${elapsed()})`);
      }
    }
    await client.query('ANALYZE sessions, cohort_pending, group_day_counts, metric_windows');

    console.log(`Seeded (${elapsed()}); starting the service (node dist/main) …`);
    service = await startProcess(options);
    const baseUrl = `http://127.0.0.1:${port}`;
    // Rows are independent enterprises (each releases under its own lock): a few at once, the
    // largest first.
    const jobs = [
      ...scoreRows.map((row) => async () => {
        const result = await measureScores(client, baseUrl, row);
        console.log(
          `  ${row.label}: released and answered in ${result.seconds.toFixed(1)} s; p95 ` +
            `|error| avg ${fmt(result.avgP95)}, median ${fmt(result.medianP95)}; coverage ` +
            `${fmt(result.avgCoverage, 3)} / ${fmt(result.medianCoverage, 3)}; margin ` +
            `${result.margin}; left out ${result.leftOut}; default maxMargin: ` +
            `${result.defaultNull} null (${elapsed()})`,
        );
        return result;
      }),
      ...wordRows.map((row) => async () => {
        const results = await measureWords(baseUrl, row);
        for (const r of results) {
          console.log(`  words ${r.participants}, ${r.speakers} speakers: shown ${pct(r.shown)}`);
        }
        return results;
      }),
    ];
    const sizes = [...scoreRows, ...wordRows].map((row) => row.participants * row.trials);
    const outcomes = await inParallel(jobs, sizes, CONCURRENCY);
    const scores = outcomes.slice(0, scoreRows.length);
    const words = outcomes.slice(scoreRows.length).flat();
    const section = formatSection({
      scores,
      words,
      threshold,
      seconds: (Date.now() - started) / 1000,
    });
    updateResultsSection('accuracy', section);
    console.log(`\n${section}`);
  } finally {
    await stopProcess(service);
    await client.end();
  }
}

function formatSection({ scores, words, threshold, seconds }) {
  const noise = (kind) => Math.sqrt(scoreNoise(releaseRho(kind, EPSILON_YEAR)).sumVariance) / 100;
  // The fewest participants whose margin 1.96·σ/n is within the default maxMargin.
  const smallest = (kind) => Math.ceil((1.96 * noise(kind)) / BUDGET.defaultMaxMargin + 1e-9);
  const target = (row) => {
    const t = TARGETS[row.kind][row.participants];
    if (!t) return '—';
    const meets = row.withheld === 0 && row.avgP95 <= t[0] && row.medianP95 <= t[1];
    return `${meets ? 'meets' : 'MISSES'} ±${t[0]} / ±${t[1]}`;
  };
  const scoresTable = markdownTable(
    [
      'participants',
      'window',
      'avgMhci: p95 \\|error\\|',
      'percentile50Mhci: p95 \\|error\\|',
      'median accuracy.margin',
      'avg interval covers',
      'median interval covers',
      'maxMargin 10 (default) answers',
      'target',
      'second version (ε = 1 a cell)',
    ],
    scores.map((row) => [
      String(row.participants),
      row.kind,
      fmt(row.avgP95),
      fmt(row.medianP95),
      String(row.margin),
      row.avgCoverage === null ? '—' : pct(row.avgCoverage),
      row.medianCoverage === null ? '—' : pct(row.medianCoverage),
      row.defaultNull === 0
        ? 'numbers'
        : row.defaultNull === row.trials
          ? `null (${row.defaultReasons.replace(/ \d+$/, '')})`
          : `null in ${row.defaultNull} of ${row.trials} (${row.defaultReasons})`,
      target(row),
      row.kind === 'month' ? (SECOND_VERSION[row.participants] ?? '—') : '—',
    ]),
  );
  const extras = markdownTable(
    [
      'participants',
      'window',
      'trials answered',
      'mean error avg / median (bias)',
      'median interval width avg / median',
      'resultsLeftOut',
      'budgetShare, ε of a window',
      'wordcloud (nobody said a word)',
      `one request released and answered in (${CONCURRENCY} rows at a time)`,
    ],
    scores.map((row) => [
      String(row.participants),
      row.kind,
      `${row.answered} of ${row.trials}`,
      `${fmt(row.avgBias)} / ${fmt(row.medianBias)}`,
      `${fmt(row.avgWidth)} / ${fmt(row.medianWidth)}`,
      String(row.leftOut),
      `${row.budgetShare}, ${row.epsilon}`,
      row.wordcloud,
      `${row.seconds.toFixed(1)} s`,
    ]),
  );
  const bySize = new Map();
  for (const w of words) {
    const list = bySize.get(w.participants) ?? [];
    list.push(w);
    bySize.set(w.participants, list);
  }
  const wordsTable = markdownTable(
    ['participants', 'speakersNeeded', 'shown, by speakers (share of the window)'],
    [...bySize].map(([participants, list]) => [
      String(participants),
      list[0].speakersNeeded,
      list
        .sort((a, b) => a.speakers - b.speakers)
        .map(
          (w) =>
            `${w.speakers} (${((100 * w.speakers) / participants).toFixed(1)} %): ${pct(w.shown)}`,
        )
        .join(', '),
    ]),
  );
  const machine = new Date().toISOString();
  return [
    '## Accuracy of group metrics, through the API (calendar windows, default budget)',
    '',
    `\`node bench/accuracy.js\`, ${machine}: real groups with known data released and answered ` +
      `by the service (\`GET /metrics/groups/{id}/mhci?groupBy=month|week&accuracy=true\`, one ` +
      `request a row), ε_year ${EPSILON_YEAR}, ${TRIALS} windows a row, each an independent ` +
      `release of N participants with one session each, scores normal(60, 15) clipped to ` +
      `[0, 100]. Error = the answer − the exact mean / \`percentile_cont(0.5)\` of the same ` +
      `values; coverage = the share of trials whose 95 % interval (\`accuracy.intervals\`) holds ` +
      `the truth. \`accuracy.margin\` is 1.96·σ/n, what the sum's noise alone gives the average ` +
      `(σ = ${noise('month').toFixed(0)} points monthly, ${noise('week').toFixed(0)} weekly). ` +
      `The bench rows run at maxMargin ${BENCH_MAX_MARGIN} so that every trial answers; ` +
      `"maxMargin 10 answers" reads the same releases again at the default, which answers ` +
      `groups of at least ${smallest('month')} participants under monthly windows and ` +
      `${smallest('week')} under weekly ones. The second version's figures ` +
      `(sealed cells at ε = 1 each; 12: daily cells, 40: read by week and by month) are kept ` +
      `beside.`,
    '',
    scoresTable,
    '',
    scoresTableNotes(scores),
    '',
    extras,
    '',
    `Words (monthly windows, the default ${PRIVACY_FLOOR.defaultSpeakers} speakers before ` +
      `noise, threshold ${threshold}): a word said by that many of the window's participants ` +
      `(each gives one word; the others each a word of their own), shown in how many of ` +
      `${WORD_TRIALS} windows. Several such words share a window (their noise and threshold are ` +
      `each their own).`,
    '',
    wordsTable,
    '',
    `Took ${seconds.toFixed(0)} s (seeding included).`,
  ].join('\n');
}

function scoresTableNotes(scores) {
  const redrawn = scores.reduce((sum, row) => sum + row.redrawn, 0);
  const leftOut = scores.reduce((sum, row) => sum + row.leftOut, 0);
  return (
    `Checked: nobody left out (resultsLeftOut ${leftOut} in every row); read again at ` +
    `maxMargin 10, every answered value is the same (${redrawn} differ): releases are drawn once.`
  );
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    stopAll().finally(() => process.exit(130));
  });
}

main().catch(async (error) => {
  console.error(error.stack ?? error.message);
  await stopAll();
  process.exitCode = 1;
});
