'use strict';

/**
 * Deterministic benchmark data: one enterprise, one API key and `groups` groups, written with the
 * same columns and formats the service itself writes. The formats, the API key hashing and the
 * privacy names are the service's own (dist/common/ids.js, dist/common/privacy-model.js); only the
 * randomness differs: every "random" value comes from a seeded PRNG, so every run seeds
 * byte-identical rows (apart from ids and timestamps the database assigns).
 *
 * The schema comes from the service's own migrations (dist/database/prepare-database.js), so
 * `npm run build` must have run first (`npm run bench` does it).
 */

const path = require('node:path');
const { Client } = require('pg');
const { BENCH_DATA_ENCRYPTION_KEY } = require('./lib');

const DIST = path.join(__dirname, '..', 'dist');
const SEED = 0x636b6e; // "ckn"

/** Rows per INSERT statement (7 parameters a row, well under PostgreSQL's 65535). */
const INSERT_BATCH = 1000;

const GROUPS_ENTERPRISE = 'Benchmark Enterprise';
const METRICS_ENTERPRISE = 'Benchmark Metrics Enterprise';
/** A different PRNG seed, so the metrics enterprise's API key differs from the groups one. */
const METRICS_SEED = 0x6d6574; // "met"
/** The metrics seed's releases: the 12 months of 2025, at the default yearly budget. */
const METRICS_MONTHS = 12;
const METRICS_EPSILON_YEAR = 24;
/** Released words per monthly words release (the wordcloud answers its top 50). */
const METRICS_WORDS = 60;
const SESSIONS_ENTERPRISE = 'Benchmark Sessions Enterprise';
/** The sessions enterprise's own PRNG seed (API key, group keys and invite codes). */
const SESSIONS_SEED = 0x736573; // "ses"

const NAME_WORDS = [
  'Support',
  'Engineering',
  'Sales',
  'Night shift',
  'Équipe Lyon',
  'R&D "Blue"',
  'Customer Care',
  'Warehouse',
  'Leadership',
  'Onboarding — cohort',
  'Zürich office',
  'Field team',
];

/** mulberry32: a tiny, fast 32-bit PRNG; returns floats in [0, 1). */
function mulberry32(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function loadDist(relative) {
  try {
    return require(path.join(DIST, relative));
  } catch (error) {
    throw new Error(`Cannot load dist/${relative} (${error.message}); run "npm run build" first`, {
      cause: error,
    });
  }
}

/** The service's own identifier formats, API key hashing and privacy names. */
const { ID_FORMATS, hashApiKey, apiKeyPrefix } = loadDist('common/ids.js');
const { PRIVACY_NAMES } = loadDist('common/privacy-model.js');

/** Identifiers in the service's formats, drawn from a seeded PRNG instead of crypto. */
function createGenerator(seed = SEED) {
  const random = mulberry32(seed);
  const int = (maxExclusive) => Math.floor(random() * maxExclusive);
  const id = ({ prefix, length, alphabet }) => {
    let out = prefix;
    for (let i = 0; i < length; i++) out += alphabet[int(alphabet.length)];
    return out;
  };
  return {
    random,
    int,
    apiKey: () => id(ID_FORMATS.apiKey),
    groupKey: () => id(ID_FORMATS.groupKey),
    inviteCode: () => id(ID_FORMATS.inviteCode),
  };
}

/** Creates the database when it is missing and runs the service's migrations on it. */
async function prepareSchema(databaseUrl) {
  const { loadConfig } = loadDist('config/config.js');
  const { prepareDatabase } = loadDist('database/prepare-database.js');
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DB_MIGRATE_ON_START: 'true',
  });
  return prepareDatabase(config);
}

/** The groups' rows, in insertion (= group_id) order. */
function buildGroups(generator, count) {
  const inviteCodes = new Set();
  const keys = new Set();
  const rows = [];
  for (let i = 0; i < count; i++) {
    let inviteCode;
    do inviteCode = generator.inviteCode();
    while (inviteCodes.has(inviteCode));
    inviteCodes.add(inviteCode);
    let key;
    do key = generator.groupKey();
    while (keys.has(key));
    keys.add(key);

    const word = NAME_WORDS[generator.int(NAME_WORDS.length)];
    const name = `${word} ${i + 1}`;
    const consentRequired = generator.random() < 0.3;
    // Most groups keep the default 0 credits; the rest hold a realistic balance.
    const credits = generator.random() < 0.4 ? 0 : 1 + generator.int(5000);
    // A subset of the privacy names, in their canonical order (about a third request none).
    const requestedPrivacy =
      generator.random() < 0.35 ? [] : PRIVACY_NAMES.filter(() => generator.random() < 0.5);
    rows.push({ name, key, inviteCode, consentRequired, credits, requestedPrivacy });
  }
  return rows;
}

async function insertGroups(client, enterpriseId, rows) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = rows.slice(start, start + INSERT_BATCH);
    const values = [];
    const params = [];
    for (const row of batch) {
      const p = params.length;
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7})`);
      params.push(
        enterpriseId,
        row.name,
        row.key,
        row.inviteCode,
        row.consentRequired,
        row.credits,
        row.requestedPrivacy,
      );
    }
    await client.query(
      `INSERT INTO groups
         (enterprise_id, name, key, invite_code, consent_required, credits, requested_privacy)
       VALUES ${values.join(', ')}`,
      params,
    );
  }
}

/**
 * Deletes the previous "Benchmark Enterprise" (cascading to its API key and groups) and seeds it
 * again; other enterprises' rows are left alone.
 * Returns the plaintext API key and the enterprise id.
 */
async function seedGroups({ databaseUrl, groups = 100, seed = SEED }) {
  if (!databaseUrl) throw new Error('seedGroups: databaseUrl is required');
  await prepareSchema(databaseUrl);

  const generator = createGenerator(seed);
  const apiKey = generator.apiKey();
  const groupRows = buildGroups(generator, groups);

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    // Only this scenario's enterprise (cascading to its keys and groups): other scenarios' data
    // (the metrics scenario's million sessions) stays, so each scenario can skip re-seeding.
    await client.query('DELETE FROM enterprises WHERE name = $1', [GROUPS_ENTERPRISE]);
    const { rows } = await client.query('INSERT INTO enterprises (name) VALUES ($1) RETURNING id', [
      GROUPS_ENTERPRISE,
    ]);
    const enterpriseId = rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKeyPrefix(apiKey),
      hashApiKey(apiKey),
    ]);
    await insertGroups(client, enterpriseId, groupRows);
    await client.query('COMMIT');
    // Fresh statistics so the planner sees the seeded sizes straight away.
    await client.query('ANALYZE enterprises, api_keys, groups');
    return { apiKey, enterpriseId };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * The metrics scenario's data, in its own enterprise ("Benchmark Metrics Enterprise", its own API
 * key, the default settings: monthly windows, ε_year 24): one group, `participants` participants
 * each with a membership in it, `sessions` completed sessions spread evenly over 2025 (UTC) with
 * a deterministic pseudo-random mhci in [0, 100], the group's per-day session counts, and what
 * the third version's releases (docs/metrics.md, "Release windows") leave for this data: the
 * year's 12 monthly windows, released, and per window the group's two releases in
 * `metric_releases` —
 * - scores: every participant's mean MHCI in the month (the service's participantScore),
 *   released by the service's own `releaseWindowScores` at the monthly ρ of the default budget
 *   (`releaseRho('month', 24)`; noise from crypto);
 * - words: a released row with the threshold the service computes (`windowWordThreshold`) and
 *   `words` released words with a long-tailed, deterministic distribution of noisy counts, each
 *   at least the threshold (the sessions carry no per-session words);
 * and the accountant's ledger (`metric_budget_spend`, what the releases charged each participant).
 * No second-version cells (`cohort_cells`): a fresh third-version database has none. Nothing is
 * pending. Sessions and counts are generated in SQL with generate_series. Seeding is skipped when
 * the enterprise already holds exactly these sizes, released at the current budget code's ρ (a
 * million sessions take a while); `force` re-seeds anyway.
 *
 * Returns { apiKey, enterpriseId, groupId, seeded (false when skipped), seconds }.
 */
async function seedMetrics({
  databaseUrl,
  participants = 10_000,
  sessions = 1_000_000,
  words = METRICS_WORDS,
  force = false,
  log = () => undefined,
}) {
  if (!databaseUrl) throw new Error('seedMetrics: databaseUrl is required');
  const started = Date.now();
  await prepareSchema(databaseUrl);
  const apiKey = createGenerator(METRICS_SEED).apiKey();
  const keyHash = hashApiKey(apiKey);
  const { releaseRho, wordReleaseDelta } = loadDist('metrics/windows/budget.js');
  const { releaseWindowScores, windowWordThreshold } = loadDist(
    'metrics/windows/window-release.js',
  );
  const { participantScore } = loadDist('metrics/releases/score-release.js');
  const { PRIVACY_FLOOR } = loadDist('common/privacy-model.js');
  const rho = releaseRho('month', METRICS_EPSILON_YEAR);
  const threshold = windowWordThreshold(
    rho,
    PRIVACY_FLOOR.defaultSpeakers,
    wordReleaseDelta('month'),
  );

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    if (!force) {
      const existing = await existingMetricsSeed(client, keyHash);
      if (
        existing &&
        existing.participants === participants &&
        existing.sessions === sessions &&
        existing.releasedWindows === METRICS_MONTHS &&
        existing.scoreReleases === METRICS_MONTHS &&
        existing.wordReleases === METRICS_MONTHS &&
        existing.wordRows === METRICS_MONTHS * words &&
        existing.legacyCells === 0 &&
        existing.pending === 0 &&
        Math.abs(existing.minRho - rho) < 1e-12 &&
        Math.abs(existing.maxRho - rho) < 1e-12 &&
        existing.threshold === threshold
      ) {
        // Cheap when nothing changed; refreshes the visibility map after a crash or new index.
        await client.query('VACUUM (ANALYZE) sessions');
        return { ...existing.ids, apiKey, seeded: false, seconds: (Date.now() - started) / 1000 };
      }
    }

    await client.query('BEGIN');
    log('  deleting the previous metrics enterprise (if any) …');
    await client.query('DELETE FROM enterprises WHERE name = $1', [METRICS_ENTERPRISE]);
    // Rows are consistent by construction; skipping the per-row foreign-key triggers (superuser
    // only; after the cascading delete above) makes the million-row insert several times faster.
    // Without the privilege the insert simply runs with the checks.
    await client.query('SAVEPOINT replica');
    try {
      await client.query("SET LOCAL session_replication_role = 'replica'");
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT replica');
    }
    // The defaults, written out: the releases below are drawn at this window and budget.
    const enterpriseId = (
      await client.query(
        `INSERT INTO enterprises (name, metrics_window, epsilon_year)
         VALUES ($1, 'month', $2) RETURNING id`,
        [METRICS_ENTERPRISE, METRICS_EPSILON_YEAR],
      )
    ).rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKeyPrefix(apiKey),
      keyHash,
    ]);
    const groupId = (
      await client.query(
        `INSERT INTO groups (enterprise_id, name, key, invite_code, consent_required, credits,
                             requested_privacy)
         VALUES ($1, 'Metrics group', $2, $3, false, 0, '{}') RETURNING group_id`,
        [enterpriseId, createGenerator(METRICS_SEED + 1).groupKey(), 'metricsbench1'],
      )
    ).rows[0].group_id;

    log(`  ${participants} participants and memberships …`);
    await client.query(
      `INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
       SELECT $1, 'ok_' || lpad(to_hex(i), 48, '0'), 'x', 'bench' || i
         FROM generate_series(1, $2::int) i`,
      [enterpriseId, participants],
    );
    await client.query(
      `INSERT INTO memberships (participant_id, group_id)
       SELECT id, $2 FROM participants WHERE enterprise_id = $1`,
      [enterpriseId, groupId],
    );

    log(`  ${sessions} sessions …`);
    // Session i belongs to participant ((i - 1) % participants) + 1 (by external id), completes
    // at 2025-01-01 UTC + (i - 1) × (year / sessions), and has mhci (i × 7919 mod 10001) / 100.
    await client.query(
      `WITH p AS (
         SELECT id, row_number() OVER (ORDER BY external_id) AS n
           FROM participants WHERE enterprise_id = $1),
       s AS (
         SELECT i, ((i - 1) % $3::int) + 1 AS n,
                timestamptz '2025-01-01 00:00:00+00'
                  + ((i - 1) * (31536000::float8 / $4::int)) * interval '1 second' AS completed_at
           FROM generate_series(1, $4::bigint) i)
       INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                             return_url, created_at, completed_at, version, mhci)
       SELECT 'ses_' || lpad(s.i::text, 24, '0'), $1, p.id, $2, 'completed',
              'https://example.com/x', s.completed_at - interval '5 minutes', s.completed_at,
              'v1.0.0', (s.i * 7919 % 10001) / 100.0
         FROM s JOIN p ON p.n = s.n
        ORDER BY s.i`,
      [enterpriseId, groupId, participants, sessions],
    );

    log('  per-day counts, 12 released monthly windows and their releases …');
    await client.query(
      `INSERT INTO group_day_counts (group_id, day, sessions)
       SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date, count(*)
         FROM sessions WHERE group_id = $1 GROUP BY 1, 2`,
      [groupId],
    );
    // Released two days after each month's end, as the sweep does with the default grace.
    const { rows: windows } = await client.query(
      `INSERT INTO metric_windows (enterprise_id, kind, first_day, last_day, epsilon_year,
                                   released_at)
       SELECT $1, 'month', m::date, (m + interval '1 month' - interval '1 day')::date, $2,
              m + interval '1 month' + interval '48 hours'
         FROM generate_series(timestamptz '2025-01-01 00:00:00+00',
                              timestamptz '2025-12-01 00:00:00+00', interval '1 month') m
       RETURNING id::int AS id, first_day::text AS "firstDay", last_day::text AS "lastDay"`,
      [enterpriseId, METRICS_EPSILON_YEAR],
    );
    // Each window's scores release as the releaser makes it: every participant's mean MHCI of
    // the month (participantScore), then the service's own release at the monthly ρ.
    const { rows: means } = await client.query(
      `SELECT to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
              array_agg(mean ORDER BY participant_id) AS means
         FROM (SELECT date_trunc('month', completed_at AT TIME ZONE 'UTC') AS completed_at,
                      participant_id, avg(mhci)::float8 AS mean
                 FROM sessions WHERE group_id = $1
                GROUP BY 1, 2) s
        GROUP BY 1 ORDER BY 1`,
      [groupId],
    );
    const byMonth = new Map(means.map((row) => [row.month, row.means]));
    for (const window of windows) {
      const values = (byMonth.get(window.firstDay.slice(0, 7)) ?? []).map(participantScore);
      const release = releaseWindowScores(values, rho);
      await client.query(
        `INSERT INTO metric_releases
                (window_id, group_id, series, participants, released, left_out, rho, noisy_sum,
                 noisy_bins, sum_noise_variance, bin_noise_variance)
         VALUES ($1, $2, 'scores', $3, true, 0, $4, $5, $6, $7, $8)`,
        [
          window.id,
          groupId,
          release.participants,
          rho,
          release.noisySum,
          release.noisyBins,
          release.sumNoiseVariance,
          release.binNoiseVariance,
        ],
      );
    }
    log(`  ${windows.length} words releases × ${words} words, the ledger …`);
    // Released words as a window of this size releases them (each participant gives one word):
    // a long-tailed, deterministic distribution of noisy counts, word n about the threshold +
    // 1000/n, plus a deterministic jitter; about 8,500 speakers a month.
    await client.query(
      `WITH active AS (
         SELECT w.id AS window_id, w.first_day, count(DISTINCT s.participant_id)::int AS n
           FROM metric_windows w
           JOIN sessions s ON s.group_id = $2
                          AND s.completed_at >= w.first_day::timestamp AT TIME ZONE 'UTC'
                          AND s.completed_at < (w.last_day + 1)::timestamp AT TIME ZONE 'UTC'
          WHERE w.enterprise_id = $1
          GROUP BY 1, 2),
       releases AS (
         INSERT INTO metric_releases
                (window_id, group_id, series, participants, released, left_out, rho,
                 word_threshold)
         SELECT window_id, $2, 'words', n, true, 0, $3, $4 FROM active
         RETURNING id, window_id)
       INSERT INTO metric_release_words (release_id, word, count)
       SELECT r.id, 'word' || w,
              $4 + 1000 / w + ((extract(month FROM a.first_day)::int * 31 + w * 17) % 20)
         FROM releases r JOIN active a USING (window_id), generate_series(1, $5::int) w`,
      [enterpriseId, groupId, rho, threshold, words],
    );
    // What the two releases charged each participant of a month (one row a window).
    await client.query(
      `INSERT INTO metric_budget_spend (participant_id, window_id, last_day, rho)
       SELECT DISTINCT s.participant_id, w.id, w.last_day, 2 * $3::float8
         FROM metric_windows w
         JOIN sessions s ON s.group_id = $2
                        AND s.completed_at >= w.first_day::timestamp AT TIME ZONE 'UTC'
                        AND s.completed_at < (w.last_day + 1)::timestamp AT TIME ZONE 'UTC'
        WHERE w.enterprise_id = $1`,
      [enterpriseId, groupId, rho],
    );
    await client.query('COMMIT');

    log('  VACUUM (ANALYZE) sessions, ANALYZE …');
    await client.query('VACUUM (ANALYZE) sessions');
    await client.query(
      'ANALYZE enterprises, api_keys, groups, participants, memberships, group_day_counts, ' +
        'metric_windows, metric_releases, metric_release_words, metric_budget_spend',
    );
    return {
      apiKey,
      enterpriseId,
      groupId: Number(groupId),
      seeded: true,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The metrics enterprise's ids and row counts when it exists with the expected key; else null. */
async function existingMetricsSeed(client, keyHash) {
  const { rows } = await client.query(
    `SELECT e.id AS enterprise_id, g.group_id
       FROM enterprises e
       JOIN api_keys k ON k.enterprise_id = e.id AND k.key_hash = $2 AND k.revoked_at IS NULL
       JOIN groups g ON g.enterprise_id = e.id
      WHERE e.name = $1 AND e.metrics_window = 'month' AND e.epsilon_year = $3`,
    [METRICS_ENTERPRISE, keyHash, METRICS_EPSILON_YEAR],
  );
  if (rows.length !== 1) return null;
  const { enterprise_id: enterpriseId, group_id: groupId } = rows[0];
  const counts = await client.query(
    `SELECT (SELECT count(*) FROM participants WHERE enterprise_id = $1)::int AS participants,
            (SELECT count(*) FROM memberships WHERE group_id = $2)::int AS memberships,
            (SELECT count(*) FROM sessions WHERE group_id = $2
                AND completed_at IS NOT NULL)::int AS sessions,
            (SELECT count(*) FROM metric_windows WHERE enterprise_id = $1
                AND released_at IS NOT NULL AND kind = 'month'
                AND first_day >= '2025-01-01' AND last_day <= '2025-12-31')::int
              AS released_windows,
            (SELECT count(*) FROM metric_windows WHERE enterprise_id = $1)::int AS windows,
            (SELECT count(*) FROM metric_releases WHERE group_id = $2 AND series = 'scores'
                AND released AND noisy_bins IS NOT NULL)::int AS score_releases,
            (SELECT count(*) FROM metric_releases WHERE group_id = $2 AND series = 'words'
                AND released)::int AS word_releases,
            (SELECT min(rho) FROM metric_releases WHERE group_id = $2) AS min_rho,
            (SELECT max(rho) FROM metric_releases WHERE group_id = $2) AS max_rho,
            (SELECT min(word_threshold) = max(word_threshold) AND count(*) > 0
                FROM metric_releases WHERE group_id = $2 AND series = 'words') AS one_threshold,
            (SELECT min(word_threshold) FROM metric_releases WHERE group_id = $2
                AND series = 'words') AS threshold,
            (SELECT count(*) FROM metric_release_words w JOIN metric_releases r
                ON r.id = w.release_id WHERE r.group_id = $2)::int AS word_rows,
            (SELECT count(*) FROM cohort_cells WHERE group_id = $2)::int AS legacy_cells,
            (SELECT count(*) FROM cohort_pending WHERE group_id = $2)::int AS pending`,
    [enterpriseId, groupId],
  );
  const c = counts.rows[0];
  if (c.memberships !== c.participants || c.windows !== c.released_windows || !c.one_threshold) {
    return null;
  }
  return {
    ids: { enterpriseId, groupId: Number(groupId) },
    participants: c.participants,
    sessions: c.sessions,
    releasedWindows: c.released_windows,
    scoreReleases: c.score_releases,
    wordReleases: c.word_releases,
    wordRows: c.word_rows,
    minRho: c.min_rho,
    maxRho: c.max_rho,
    threshold: c.threshold,
    legacyCells: c.legacy_cells,
    pending: c.pending,
  };
}

/**
 * SQL for the seeded participant n's external ID: `ok_` + 48 hex characters taken from md5s of n,
 * so they look random, never collide with the metrics seed's zero-padded ones (external IDs are
 * unique across enterprises) and can be recomputed in SQL to join on.
 */
const sessionsExternalIdSql = (n) =>
  `'ok_' || md5('bench-sessions/p' || ${n}) || left(md5('bench-sessions/q' || ${n}), 16)`;

/** The seeded participant n's email (already normalised: lower case, no spaces). */
const sessionsParticipantEmail = (n) => `participant${n}@sessions.bench.example`;

/** Participants' lines in the seeded transcripts: quotes, a backslash, a newline, non-ASCII. */
const TRANSCRIPT_LINES = [
  'Work has been busy, but I am sleeping better this week.',
  'I feel a bit tired, the deadlines keep coming.',
  'Honestly? Good — the team is supportive and the "long" weekend helped.',
  'Stress is high: meetings all day, little time for exercise.\nStill, walking helps.',
  'Calmer than last month; ça va mieux 😊 (C:\\notes\\mood.txt says so too).',
];

/**
 * The 25 transcripts of the sessions seed (session i: user lines i mod 5 and (i / 5) mod 5, at
 * index (i mod 5) × 5 + (i / 5) mod 5), each encrypted as ingestion stores it (the service's own
 * sealTranscript from dist/, under its data keys). Sessions with the same lines share one
 * ciphertext: the same bytes to read and decrypt as distinct ones.
 */
function sealedTranscripts(cipher) {
  const { sealTranscript } = loadDist('sessions/transcript-codec.js');
  const sealed = [];
  for (let first = 0; first < 5; first += 1) {
    for (let second = 0; second < 5; second += 1) {
      sealed.push(
        sealTranscript(cipher, [
          { role: 'assistant', content: 'How have you been feeling this week?' },
          { role: 'user', content: TRANSCRIPT_LINES[first] },
          { role: 'assistant', content: 'What helped, and what did not?' },
          { role: 'user', content: TRANSCRIPT_LINES[second] },
        ]),
      );
    }
  }
  return sealed;
}

/**
 * The 25 feature sets of the sessions seed (session i: set i mod 25), each encrypted as ingestion
 * stores features (the service's own sealJson, dist/), shared like the transcripts.
 */
function sealedFeatures(cipher) {
  const { sealJson } = loadDist('sessions/transcript-codec.js');
  return Array.from({ length: 25 }, (_, i) =>
    sealJson(cipher, {
      speech_rate: Math.round(2000 + ((i * 13) % 2501)) / 1000,
      pitch_variability: Math.round(100 + ((i * 17) % 501)) / 1000,
      pause_ratio: Math.round(50 + ((i * 19) % 351)) / 1000,
      smile_ratio: ((i * 23) % 501) / 1000,
      vocal_energy: Math.round(200 + ((i * 29) % 701)) / 1000,
    }),
  );
}

/**
 * The sessions scenarios' data, in their own enterprise ("Benchmark Sessions Enterprise", its own
 * API key): `groups` groups, `participants` participants spread round-robin over them (one
 * membership each, privacy level 5, so GET /sessions/{id} shows every field), and `sessions`
 * completed sessions spread round-robin over the participants, each with a full result
 * (version, mhci, subscores, group and user percentiles, a four-turn transcript encrypted as
 * ingestion stores it, five features; the shapes the ingestion writes, values deterministic functions of the session's
 * number). Sessions and memberships are generated in SQL (generate_series). Participants' emails
 * are encrypted and hashed in Node with the service's own PiiCipher (dist/) under the key the
 * service is started with (`serviceEnv`, the service's environment, read with its own
 * loadConfig), so the service finds them by email like its own rows.
 *
 * Not seeded: the per-session inputs of word clouds (word_counts) and the group rollups, which GET /sessions and POST /session/create do
 * not read; result_hash is a SHA-256 of the session's number, not of its result.
 *
 * Seeding is skipped when the enterprise already holds exactly these sizes, at level 5, with
 * emails hashed under the current key (`force` re-seeds anyway). Either way, sessions still
 * pending (status 'created': those POST /session/create made in an earlier run; the seed only
 * writes completed ones) are deleted, so repeated runs start from the same table.
 *
 * Returns { apiKey, enterpriseId, seeded, deletedPending, seconds, sessionIds (in seeding
 * order), members: [{ externalId, email, groupId, groupKey }] (in participant order) }.
 */
async function seedSessions({
  databaseUrl,
  serviceEnv,
  groups = 100,
  participants = 10_000,
  sessions = 100_000,
  force = false,
  log = () => undefined,
}) {
  if (!databaseUrl) throw new Error('seedSessions: databaseUrl is required');
  if (!serviceEnv)
    throw new Error("seedSessions: serviceEnv (the service's environment) is required");
  const started = Date.now();
  await prepareSchema(databaseUrl);
  const { loadConfig } = loadDist('config/config.js');
  const { PiiCipher } = loadDist('common/crypto/pii-cipher.js');
  const serviceConfig = loadConfig(serviceEnv);
  const cipher = PiiCipher.fromKeys(serviceConfig.dataEncryptionKey, serviceConfig.dataKeys);
  const generator = createGenerator(SESSIONS_SEED);
  const apiKey = generator.apiKey();
  const keyHash = hashApiKey(apiKey);

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    let seeded = false;
    let enterpriseId = force
      ? null
      : await existingSessionsSeed(client, keyHash, {
          groups,
          participants,
          sessions,
          firstEmailHash: cipher.emailLookupHash(sessionsParticipantEmail(1)),
        });
    if (!enterpriseId) {
      enterpriseId = await insertSessionsSeed(client, {
        apiKey,
        keyHash,
        groupRows: buildGroups(generator, groups),
        cipher,
        participants,
        sessions,
        log,
      });
      seeded = true;
    }

    const deleted = await client.query(
      `DELETE FROM sessions WHERE enterprise_id = $1 AND status = 'created'`,
      [enterpriseId],
    );
    const deletedPending = deleted.rowCount;
    if (seeded || deletedPending > 0) {
      log(
        `  VACUUM (ANALYZE) sessions${deletedPending ? ` (${deletedPending} pending deleted)` : ''} …`,
      );
      await client.query('VACUUM (ANALYZE) sessions');
    }
    if (seeded)
      await client.query('ANALYZE enterprises, api_keys, groups, participants, memberships');

    const sessionIds = (
      await client.query(
        `SELECT session_id FROM sessions WHERE enterprise_id = $1 ORDER BY completed_at`,
        [enterpriseId],
      )
    ).rows.map((row) => row.session_id);
    const memberRows = (
      await client.query(
        `SELECT p.external_id, m.group_id, g.key
           FROM participants p
           JOIN memberships m ON m.participant_id = p.id
           JOIN groups g ON g.group_id = m.group_id
          WHERE p.enterprise_id = $1
          ORDER BY m.join_date`,
        [enterpriseId],
      )
    ).rows;
    const members = memberRows.map((row, i) => ({
      externalId: row.external_id,
      email: sessionsParticipantEmail(i + 1),
      groupId: Number(row.group_id),
      groupKey: row.key,
    }));
    return {
      apiKey,
      enterpriseId,
      seeded,
      deletedPending,
      seconds: (Date.now() - started) / 1000,
      sessionIds,
      members,
    };
  } finally {
    await client.end();
  }
}

/** The sessions enterprise's id when it holds exactly the expected seed; else null. */
/**
 * Waits until the service has counted the sessions enterprise's level-5 features in its group
 * comparisons (`features_shared`, docs/metrics.md): a freshly seeded enterprise leaves that to
 * the first service started on it, whose in-process workers then reconcile 100,000 sessions in
 * the background (tens of seconds under load). Measuring meanwhile would charge that work to our
 * service alone. Answers how many seconds it waited.
 */
async function waitForSharedFeatures(databaseUrl, { timeoutMs = 600_000 } = {}) {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  const started = Date.now();
  try {
    for (;;) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM sessions s JOIN enterprises e ON e.id = s.enterprise_id
          WHERE e.name = $1 AND s.status = 'completed' AND s.shared_level = 5
            AND s.features IS NOT NULL AND NOT s.features_shared`,
        [SESSIONS_ENTERPRISE],
      );
      if (rows[0].n === 0) return (Date.now() - started) / 1000;
      if (Date.now() - started > timeoutMs) {
        throw new Error(`the service left ${rows[0].n} seeded sessions' features uncounted`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await client.end();
  }
}

async function existingSessionsSeed(client, keyHash, expected) {
  const { rows } = await client.query(
    `SELECT e.id FROM enterprises e
       JOIN api_keys k ON k.enterprise_id = e.id AND k.key_hash = $2 AND k.revoked_at IS NULL
      WHERE e.name = $1`,
    [SESSIONS_ENTERPRISE, keyHash],
  );
  if (rows.length !== 1) return null;
  const enterpriseId = rows[0].id;
  const counts = (
    await client.query(
      `SELECT (SELECT count(*) FROM groups WHERE enterprise_id = $1)::int AS groups,
              (SELECT count(*) FROM participants WHERE enterprise_id = $1)::int AS participants,
              (SELECT count(*) FROM memberships m JOIN participants p ON p.id = m.participant_id
                WHERE p.enterprise_id = $1 AND m.privacy_level = 5)::int AS members,
              (SELECT count(*) FROM sessions WHERE enterprise_id = $1
                  AND status = 'completed')::int AS sessions,
              EXISTS (SELECT 1 FROM participants WHERE enterprise_id = $1
                         AND email_hash = $2) AS key_matches,
              -- Transcripts or features not sealed as the service stores them: seeded again.
              -- (Completed ones: the pending sessions session-create made are deleted below.)
              NOT EXISTS (SELECT 1 FROM sessions WHERE enterprise_id = $1
                             AND status = 'completed'
                             AND (transcript NOT LIKE 'v2.%' OR features NOT LIKE 'v2.%'
                                  OR shared_level IS DISTINCT FROM 5))
                AS transcripts_sealed`,
      [enterpriseId, expected.firstEmailHash],
    )
  ).rows[0];
  const same =
    counts.groups === expected.groups &&
    counts.participants === expected.participants &&
    counts.members === expected.participants &&
    counts.sessions === expected.sessions &&
    counts.key_matches &&
    counts.transcripts_sealed;
  return same ? enterpriseId : null;
}

/** Deletes the previous sessions enterprise (cascading) and writes the seed; returns its id. */
async function insertSessionsSeed(
  client,
  { apiKey, keyHash, groupRows, cipher, participants, sessions, log },
) {
  const groupCount = groupRows.length;
  try {
    await client.query('BEGIN');
    log('  deleting the previous sessions enterprise (if any) …');
    await client.query('DELETE FROM enterprises WHERE name = $1', [SESSIONS_ENTERPRISE]);
    const enterpriseId = (
      await client.query('INSERT INTO enterprises (name) VALUES ($1) RETURNING id', [
        SESSIONS_ENTERPRISE,
      ])
    ).rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKeyPrefix(apiKey),
      keyHash,
    ]);
    await insertGroups(client, enterpriseId, groupRows);

    log(`  ${participants} participants (emails encrypted as the service does) and memberships …`);
    const ciphertexts = [];
    const hashes = [];
    for (let n = 1; n <= participants; n++) {
      const email = sessionsParticipantEmail(n);
      ciphertexts.push(cipher.encrypt(email));
      hashes.push(cipher.emailLookupHash(email));
    }
    await client.query(
      `INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
       SELECT $1, ${sessionsExternalIdSql('t.n')}, t.ciphertext, t.hash
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(ciphertext, hash, n)
        ORDER BY t.n`,
      [enterpriseId, ciphertexts, hashes],
    );
    // Participant n is in the ((n - 1) mod groups + 1)-th group (by group_id), at level 5; join
    // dates follow n, one minute apart.
    const seededParticipants = `
      p AS (SELECT x.n, pt.id
              FROM (SELECT n, ${sessionsExternalIdSql('n')} AS external_id
                      FROM generate_series(1, $2::int) n) x
              JOIN participants pt ON pt.external_id = x.external_id AND pt.enterprise_id = $1),
      g AS (SELECT group_id, row_number() OVER (ORDER BY group_id) AS k
              FROM groups WHERE enterprise_id = $1)`;
    await client.query(
      `WITH ${seededParticipants}
       INSERT INTO memberships (participant_id, group_id, join_date, privacy_level)
       SELECT p.id, g.group_id, timestamptz '2024-12-01 00:00:00+00' + p.n * interval '1 minute', 5
         FROM p JOIN g ON g.k = (p.n - 1) % $3::int + 1
        ORDER BY p.n`,
      [enterpriseId, participants, groupCount],
    );

    log(`  ${sessions} completed sessions with full results …`);
    // Session i: participant (i - 1) mod participants + 1, completed at 2025-01-01 UTC +
    // (i - 1) × (year / sessions) + (i × 37 mod 1000) ms, created 5 to 6.6 minutes before.
    await client.query(
      `WITH ${seededParticipants},
       s AS (
         SELECT i, (i - 1) % $2::int + 1 AS n,
                timestamptz '2025-01-01 00:00:00+00'
                  + ((i - 1) * (31536000::float8 / $4::int)) * interval '1 second'
                  + (i * 37 % 1000) * interval '1 millisecond' AS completed_at,
                round(35 + (i * 7919 % 5501) / 100.0, 1) AS mhci
           FROM generate_series(1, $4::int) i)
       INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                             return_url, created_at, completed_at, version, mhci, subscores,
                             group_percentiles, user_percentiles, transcript, features,
                             result_hash, synthetic, shared_level)
       SELECT 'ses_' || left(md5('bench-sessions/s' || s.i), 24), $1, p.id, g.group_id,
              'completed', 'https://app.example.com/checkin/finished',
              s.completed_at - interval '5 minutes' - (s.i % 97) * interval '1 second',
              s.completed_at, 'v1.' || (s.i % 3) || '.0', s.mhci::float8,
              jsonb_build_object(
                'vision', round(least(100, greatest(0, s.mhci + (s.i * 31 % 241 - 120) / 10.0)), 1),
                'audio', round(least(100, greatest(0, s.mhci + (s.i * 37 % 241 - 120) / 10.0)), 1),
                'transcript', round(least(100, greatest(0, s.mhci + (s.i * 41 % 241 - 120) / 10.0)), 1),
                'assessment', round(least(100, greatest(0, s.mhci + (s.i * 43 % 241 - 120) / 10.0)), 1)),
              jsonb_build_object(
                'speech_rate', round((s.i * 53 % 10001) / 10000.0, 4),
                'pitch_variability', round((s.i * 59 % 10001) / 10000.0, 4),
                'pause_ratio', round((s.i * 61 % 10001) / 10000.0, 4),
                'smile_ratio', round((s.i * 67 % 10001) / 10000.0, 4),
                'vocal_energy', round((s.i * 71 % 10001) / 10000.0, 4)),
              jsonb_build_object(
                'speech_rate', round((s.i * 73 % 10001) / 10000.0, 4),
                'pitch_variability', round((s.i * 79 % 10001) / 10000.0, 4),
                'pause_ratio', round((s.i * 83 % 10001) / 10000.0, 4),
                'smile_ratio', round((s.i * 89 % 10001) / 10000.0, 4),
                'vocal_energy', round((s.i * 97 % 10001) / 10000.0, 4)),
              ($5::text[])[1 + (s.i % 5) * 5 + (s.i / 5) % 5],
              ($6::text[])[1 + s.i % 25],
              encode(sha256(convert_to('bench-sessions/r' || s.i, 'UTF8')), 'hex'), false,
              -- Each check-in shared at level 5 (its own level, docs/privacy.md), like its member.
              5
         FROM s
         JOIN p ON p.n = s.n
         JOIN g ON g.k = (s.n - 1) % $3::int + 1
        ORDER BY s.i`,
      [
        enterpriseId,
        participants,
        groupCount,
        sessions,
        sealedTranscripts(cipher),
        sealedFeatures(cipher),
      ],
    );
    await client.query('COMMIT');
    return enterpriseId;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

const INGESTION_ENTERPRISE = 'Benchmark Ingestion Enterprise';
const INGESTION_SEED = 0x696e67; // "ing"
const INGESTION_LARGE_GROUP = 'Ingestion 1M group';
const INGESTION_EMPTY_GROUP = 'Ingestion empty group';
/** Every seeded session of the large group completed in 2025; later ones came from a bench run. */
const INGESTION_SEEDED_UNTIL = '2025-12-31T23:59:59.999Z';

/**
 * The ingestion scenario's features: a continuous, bell-shaped spread around `centre` with
 * standard deviation `spread` (a sum of four uniforms, so bounded at ±3.46 spreads and, with these
 * values, always positive). The seed and the scenario's request bodies draw from the same ones.
 */
const INGESTION_FEATURES = [
  { name: 'pause_ratio', centre: 0.22, spread: 0.06 },
  { name: 'pitch_variability', centre: 0.32, spread: 0.08 },
  { name: 'response_latency_s', centre: 1.6, spread: 0.45 },
  { name: 'smile_ratio', centre: 0.3, spread: 0.08 },
  { name: 'speech_rate', centre: 3.2, spread: 0.55 },
  { name: 'vocal_energy', centre: 0.58, spread: 0.12 },
];

/** A value of `feature` from `random` (a [0, 1) generator), as the seed draws them. */
function ingestionFeatureValue(feature, random) {
  const sum = random() + random() + random() + random();
  return feature.centre + feature.spread * Math.sqrt(3) * (sum - 2);
}

async function tableExists(client, table) {
  const { rows } = await client.query(
    `SELECT 1 FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = $1`,
    [table],
  );
  return rows.length > 0;
}

/**
 * The large group's exact feature value counts (`group_feature_values`) and histograms
 * (`group_feature_histograms`), as ingestion would have written them for its seeded sessions:
 * feature k of session i is centre + spread·√3·(u1 + u2 + u3 + u4 − 2), each u a uniform in
 * [0, 1) from hashint8extended(i, 4k + j) — a bell-shaped, continuous, deterministic spread. A
 * session's own values are stored only encrypted (docs/data-at-rest.md), and seeded sessions need
 * none: only the group's counts matter to ingestion's percentiles. Rebuilt whole after each run
 * (the runs' sessions are deleted, and their values are known only encrypted).
 */
async function rebuildFeatureValues(client, groupId) {
  await client.query('DELETE FROM group_feature_values WHERE group_id = $1', [groupId]);
  await client.query('DELETE FROM group_feature_histograms WHERE group_id = $1', [groupId]);
  await client.query(
    `INSERT INTO group_feature_values (group_id, name, value, count)
     SELECT $1::bigint, f.name,
            f.centre + f.spread * sqrt(3) * (
                (hashint8extended(x.i, f.k * 4) & 4294967295)::float8
              + (hashint8extended(x.i, f.k * 4 + 1) & 4294967295)::float8
              + (hashint8extended(x.i, f.k * 4 + 2) & 4294967295)::float8
              + (hashint8extended(x.i, f.k * 4 + 3) & 4294967295)::float8) / 4294967296
            - f.spread * sqrt(3) * 2 AS value,
            count(*)
       FROM sessions s
      CROSS JOIN LATERAL (SELECT substr(s.session_id, 6)::bigint AS i) x
      CROSS JOIN unnest($2::text[], $3::float8[], $4::float8[])
                 WITH ORDINALITY AS f(name, centre, spread, k)
      WHERE s.group_id = $1 AND s.completed_at <= $5
      GROUP BY 1, 2, 3`,
    [
      groupId,
      INGESTION_FEATURES.map((feature) => feature.name),
      INGESTION_FEATURES.map((feature) => feature.centre),
      INGESTION_FEATURES.map((feature) => feature.spread),
      INGESTION_SEEDED_UNTIL,
    ],
  );
  await client.query(
    `INSERT INTO group_feature_histograms (group_id, name, bucket, count)
     SELECT group_id, name, feature_bucket(value), sum(count)
       FROM group_feature_values WHERE group_id = $1 GROUP BY 1, 2, 3`,
    [groupId],
  );
}

/**
 * The result-ingestion scenario's data, in its own enterprise ("Benchmark Ingestion Enterprise"):
 * `participants` participants, each a member of two groups; the large group holds `sessions`
 * completed sessions (spread over 2025 UTC, participant (i − 1) mod participants + 1) and the
 * group's exact feature value counts and histograms for them, as ingestion writes them
 * (rebuildFeatureValues: deterministic pseudo-random values of INGESTION_FEATURES), the other
 * group none. Pure SQL (generate_series), then VACUUM (ANALYZE).
 *
 * On an existing seed, first removes what earlier runs added (every session of the empty group,
 * the large group's sessions that are pending or completed after 2025, their events and day
 * counts; the group's feature counts are rebuilt), then checks the sizes; seeding is skipped when
 * they match (`force` re-seeds anyway).
 *
 * Returns { apiKey, enterpriseId, largeGroupId, emptyGroupId, histograms, seeded, seconds }.
 */
async function seedIngestion({
  databaseUrl,
  participants = 10_000,
  sessions = 1_000_000,
  force = false,
  log = () => undefined,
}) {
  if (!databaseUrl) throw new Error('seedIngestion: databaseUrl is required');
  const started = Date.now();
  await prepareSchema(databaseUrl);
  const generator = createGenerator(INGESTION_SEED);
  const apiKey = generator.apiKey();
  const keyHash = hashApiKey(apiKey);
  const names = INGESTION_FEATURES.map((feature) => feature.name);

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    if (!force) {
      const ids = await existingIngestionSeed(client, keyHash);
      if (ids) {
        log('  removing what earlier runs added …');
        await removeIngestionRuns(client, ids);
        const counts = (
          await client.query(
            `SELECT (SELECT count(*) FROM participants WHERE enterprise_id = $1)::int AS participants,
                    (SELECT count(*) FROM memberships
                      WHERE group_id = $2 AND privacy_level = 5)::int AS large_members,
                    (SELECT count(*) FROM memberships
                      WHERE group_id = $3 AND privacy_level = 5)::int AS empty_members,
                    (SELECT count(*) FROM sessions WHERE group_id = $2
                        AND completed_at IS NOT NULL)::int AS sessions,
                    (SELECT coalesce(sum(count), 0) FROM group_feature_values
                      WHERE group_id = $2)::int AS features`,
            [ids.enterpriseId, ids.largeGroupId, ids.emptyGroupId],
          )
        ).rows[0];
        if (
          counts.participants === participants &&
          counts.large_members === participants &&
          counts.empty_members === participants &&
          counts.sessions === sessions &&
          counts.features === sessions * names.length
        ) {
          const histograms = true;
          // Cheap when nothing changed; clears what the removal left behind.
          await client.query('VACUUM (ANALYZE) sessions, group_feature_values');
          await client.query('VACUUM (ANALYZE) group_feature_histograms');
          return {
            ...ids,
            apiKey,
            histograms,
            seeded: false,
            seconds: (Date.now() - started) / 1000,
          };
        }
        log(`  sizes differ (${JSON.stringify(counts)}): seeding again …`);
      }
    }

    await client.query('BEGIN');
    log('  deleting the previous ingestion enterprise (if any) …');
    await client.query('DELETE FROM enterprises WHERE name = $1', [INGESTION_ENTERPRISE]);
    // As in seedMetrics: rows are consistent by construction, so skip per-row FK triggers.
    await client.query('SAVEPOINT replica');
    try {
      await client.query("SET LOCAL session_replication_role = 'replica'");
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT replica');
    }
    const enterpriseId = (
      await client.query('INSERT INTO enterprises (name) VALUES ($1) RETURNING id', [
        INGESTION_ENTERPRISE,
      ])
    ).rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKeyPrefix(apiKey),
      keyHash,
    ]);
    const insertGroup = async (name, key, inviteCode) =>
      Number(
        (
          await client.query(
            `INSERT INTO groups (enterprise_id, name, key, invite_code, consent_required, credits,
                                 requested_privacy)
             VALUES ($1, $2, $3, $4, false, 0, '{}') RETURNING group_id`,
            [enterpriseId, name, key, inviteCode],
          )
        ).rows[0].group_id,
      );
    const largeGroupId = await insertGroup(
      INGESTION_LARGE_GROUP,
      generator.groupKey(),
      'ingestbench01',
    );
    const emptyGroupId = await insertGroup(
      INGESTION_EMPTY_GROUP,
      generator.groupKey(),
      'ingestbench02',
    );

    log(`  ${participants} participants, members of both groups …`);
    // External ids start with "a1" so they never meet the metrics seed's (zero-padded) ones.
    await client.query(
      `INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
       SELECT $1, 'ok_a1' || lpad(to_hex(i), 46, '0'), 'x', 'ingest' || i
         FROM generate_series(1, $2::int) i`,
      [enterpriseId, participants],
    );
    // Everyone shares at level 5: the group comparisons count every session (the largest
    // histograms a group can have), and each result joins them (docs/checkin-flow.md).
    await client.query(
      `INSERT INTO memberships (participant_id, group_id, privacy_level)
       SELECT p.id, g.group_id, 5
         FROM participants p CROSS JOIN unnest($2::bigint[]) AS g(group_id)
        WHERE p.enterprise_id = $1`,
      [enterpriseId, [largeGroupId, emptyGroupId]],
    );

    log(`  ${sessions} completed sessions in the large group …`);
    await client.query(
      `WITH p AS (
         SELECT id, row_number() OVER (ORDER BY external_id) AS n
           FROM participants WHERE enterprise_id = $1),
       s AS (
         SELECT i, ((i - 1) % $3::int) + 1 AS n,
                timestamptz '2025-01-01 00:00:00+00'
                  + ((i - 1) * (31536000::float8 / $4::int)) * interval '1 second' AS completed_at
           FROM generate_series(1, $4::bigint) i)
       INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                             return_url, created_at, completed_at, version, mhci, shared_level,
                             features_shared)
       SELECT 'ses_I' || lpad(s.i::text, 23, '0'), $1, p.id, $2, 'completed',
              'https://example.com/x', s.completed_at - interval '5 minutes', s.completed_at,
              'v1.0.0', (s.i * 7919 % 10001) / 100.0, 5, true
         FROM s JOIN p ON p.n = s.n
        ORDER BY s.i`,
      [enterpriseId, largeGroupId, participants, sessions],
    );

    log(`  the large group's exact feature values and histograms (${names.length} features) …`);
    await rebuildFeatureValues(client, largeGroupId);
    const histograms = true;
    await client.query('COMMIT');

    log('  VACUUM (ANALYZE) …');
    await client.query('VACUUM (ANALYZE) sessions, group_feature_values');
    await client.query('VACUUM (ANALYZE) group_feature_histograms');
    await client.query('ANALYZE enterprises, api_keys, groups, participants, memberships');
    return {
      apiKey,
      enterpriseId,
      largeGroupId,
      emptyGroupId,
      histograms,
      seeded: true,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The ingestion enterprise's ids when it exists with the expected key and groups; else null. */
async function existingIngestionSeed(client, keyHash) {
  const { rows } = await client.query(
    `SELECT e.id AS enterprise_id,
            max(g.group_id) FILTER (WHERE g.name = $2) AS large_group_id,
            max(g.group_id) FILTER (WHERE g.name = $3) AS empty_group_id,
            count(g.group_id)::int AS groups
       FROM enterprises e
       JOIN api_keys k ON k.enterprise_id = e.id AND k.key_hash = $4 AND k.revoked_at IS NULL
       LEFT JOIN groups g ON g.enterprise_id = e.id
      WHERE e.name = $1
      GROUP BY e.id`,
    [INGESTION_ENTERPRISE, INGESTION_LARGE_GROUP, INGESTION_EMPTY_GROUP, keyHash],
  );
  if (rows.length !== 1) return null;
  const row = rows[0];
  if (row.groups !== 2 || !row.large_group_id || !row.empty_group_id) return null;
  return {
    enterpriseId: row.enterprise_id,
    largeGroupId: Number(row.large_group_id),
    emptyGroupId: Number(row.empty_group_id),
  };
}

/**
 * Undoes earlier runs: every session of the empty group, the large group's sessions that are not
 * seeded (pending, or completed after 2025; their cohort rows go with them), the groups' events,
 * those sessions' features in the histograms, and their day counts; credits back to 0.
 */
async function removeIngestionRuns(client, { largeGroupId, emptyGroupId }) {
  await client.query('BEGIN');
  try {
    // The runs' feature values in the large group, stored encrypted: opened with the benchmark's
    // data key and taken out by the service's own statement, as erasure does.
    const { rows: runs } = await client.query(
      `SELECT group_id AS "groupId", features FROM sessions
        WHERE group_id = $1 AND completed_at > $2 AND features IS NOT NULL`,
      [largeGroupId, INGESTION_SEEDED_UNTIL],
    );
    if (runs.length > 0) {
      const { loadConfig } = loadDist('config/config.js');
      const { PiiCipher } = loadDist('common/crypto/pii-cipher.js');
      const { openJson } = loadDist('sessions/transcript-codec.js');
      const { MetricRollupsRepository } = loadDist('metrics/rollups/metric-rollups.repository.js');
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_ENCRYPTION_KEY: BENCH_DATA_ENCRYPTION_KEY,
      });
      const cipher = PiiCipher.fromKeys(config.dataEncryptionKey, config.dataKeys);
      const sql = { rows: async (text, params) => (await client.query(text, params)).rows };
      const values = runs.flatMap((run) =>
        Object.entries(openJson(cipher, run.features)).map(([name, value]) => ({
          groupId: Number(run.groupId),
          name,
          value,
        })),
      );
      await new MetricRollupsRepository(sql).forgetFeatureValues(values, sql);
    }
    await client.query(
      `DELETE FROM sessions
        WHERE (group_id = $1 AND (completed_at IS NULL OR completed_at > $3)) OR group_id = $2`,
      [largeGroupId, emptyGroupId, INGESTION_SEEDED_UNTIL],
    );
    const groups = [largeGroupId, emptyGroupId];
    await client.query('DELETE FROM events WHERE group_id = ANY ($1::bigint[])', [groups]);
    // The day counts of group `count`, as ingestion keeps them: recounted from what is left.
    await client.query('DELETE FROM group_day_counts WHERE group_id = ANY ($1::bigint[])', [
      groups,
    ]);
    await client.query(
      `INSERT INTO group_day_counts (group_id, day, sessions)
       SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date, count(*)
         FROM sessions WHERE group_id = ANY ($1::bigint[]) AND completed_at IS NOT NULL
        GROUP BY 1, 2`,
      [groups],
    );
    await client.query('UPDATE groups SET credits = 0 WHERE group_id = ANY ($1::bigint[])', [
      groups,
    ]);
    await client.query('DELETE FROM group_feature_values WHERE group_id = $1', [emptyGroupId]);
    await client.query('DELETE FROM group_feature_histograms WHERE group_id = $1', [emptyGroupId]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * `count` pending sessions (status 'created', as POST /session/create leaves them) in `groupId`
 * of the ingestion enterprise, with ids `ses_P` + `token` (6 base62) + a 17-digit number from
 * `from`; participant n mod participants, in external-id order. Returns their ids in order.
 */
async function addPendingSessions(client, { enterpriseId, groupId, token, from = 0, count }) {
  if (!/^[0-9A-Za-z]{6}$/.test(token)) throw new Error(`bad pending-session token ${token}`);
  const { rows } = await client.query(
    `WITH p AS (
       SELECT id, row_number() OVER (ORDER BY external_id) - 1 AS n, count(*) OVER () AS total
         FROM participants WHERE enterprise_id = $1)
     INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status, return_url)
     SELECT 'ses_P' || $3 || lpad(i::text, 17, '0'), $1, p.id, $2, 'created',
            'https://example.com/back'
       FROM generate_series($4::bigint, $4::bigint + $5::int - 1) i
       JOIN p ON p.n = i % p.total
      ORDER BY i
     RETURNING session_id`,
    [enterpriseId, groupId, token, from, count],
  );
  return rows.map((row) => row.session_id).sort();
}

const WEBHOOKS_ENTERPRISE = 'Benchmark Webhooks Enterprise';
const WEBHOOKS_SEED = 0x776862; // "whb"

/**
 * The webhooks scenario's enterprise ("Benchmark Webhooks Enterprise"): its API key and one group
 * (no participants; the scenario creates them through the API). Deletes the previous one first,
 * cascading to its participants, events, endpoints and deliveries.
 * Returns { apiKey, enterpriseId, groupId, groupKey }.
 */
async function seedWebhooks({ databaseUrl }) {
  if (!databaseUrl) throw new Error('seedWebhooks: databaseUrl is required');
  await prepareSchema(databaseUrl);
  const generator = createGenerator(WEBHOOKS_SEED);
  const apiKey = generator.apiKey();
  const groupKey = generator.groupKey();
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('DELETE FROM enterprises WHERE name = $1', [WEBHOOKS_ENTERPRISE]);
    const enterpriseId = (
      await client.query('INSERT INTO enterprises (name) VALUES ($1) RETURNING id', [
        WEBHOOKS_ENTERPRISE,
      ])
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
           VALUES ($1, 'Webhooks group', $2, 'webhookbench1', false, 0, '{}') RETURNING group_id`,
          [enterpriseId, groupKey],
        )
      ).rows[0].group_id,
    );
    await client.query('COMMIT');
    // The previous run's enterprise went with everything it owned: vacuum what it left dead, as
    // autovacuum would (this machine's PostgreSQL runs without it; scenarios/webhooks.js).
    await client.query(
      'VACUUM (ANALYZE) participants, memberships, sessions, events, webhook_deliveries, delivery_attempts',
    );
    return { apiKey, enterpriseId, groupId, groupKey };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

module.exports = {
  waitForSharedFeatures,
  loadDist,
  seedGroups,
  seedMetrics,
  prepareSchema,
  seedSessions,
  mulberry32,
  createGenerator,
  hashApiKey,
  METRICS_ENTERPRISE,
  SESSIONS_ENTERPRISE,
  seedIngestion,
  addPendingSessions,
  rebuildFeatureValues,
  tableExists,
  ingestionFeatureValue,
  INGESTION_ENTERPRISE,
  INGESTION_FEATURES,
  INGESTION_SEEDED_UNTIL,
  seedWebhooks,
  WEBHOOKS_ENTERPRISE,
};
