'use strict';

/**
 * POST /session/create for existing participants (`userIdentifier` = their `ok_` external ID,
 * docs/checkin-flow.md "later sessions"), in the sessions scenario's data (100 groups, 10,000 participants,
 * 100,000 sessions): the built service against the bare Fastify + pg reference
 * (bench/reference/sessions-server.js: group lookup, participant lookup and a single INSERT, the
 * service's own statements), alternating reference and ours. autocannon rotates over every
 * participant (with their group's id and key) in one shuffled order, the same for both servers.
 *
 * Each answer carries a new session id and token, so the two servers' answers are compared with
 * those two values masked (and the token verified) rather than byte for byte. Sessions created
 * here pile up during the run; the seed deletes them at the next run (seedSessions deletes every
 * pending session of its enterprise), so runs start from the same table.
 */

const { Buffer } = require('node:buffer');
const path = require('node:path');
const { Client } = require('pg');
const {
  DEFAULTS,
  freePort,
  httpRequest,
  measure,
  stopProcess,
  ourServiceOptions,
  throughputFmt,
  throughputTable,
} = require('../lib');
const {
  GROUPS,
  PARTICIPANTS,
  SESSIONS,
  SHARED_ENV,
  assertSameBytes,
  seedSessionsData,
  shuffled,
  startServers,
  summarise,
} = require('./sessions');
const { waitForSharedFeatures } = require('../seed');

const DIST = path.join(__dirname, '..', '..', 'dist');
const ROUNDS = 2;
const TARGET_RATIO = 0.7;
const RETURN_URL = 'https://app.example.com/checkin/finished';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const RESPONSE_FIELDS = ['success', 'message', 'userIdentifier', 'redirectUrl', 'sessionID'];
const SESSION_ID_PATTERN = /^ses_[0-9A-Za-z]{24}$/;

const body = (member) =>
  JSON.stringify({
    groupID: member.groupId,
    groupKey: member.groupKey,
    userIdentifier: member.externalId,
    returnURL: RETURN_URL,
  });

/**
 * autocannon's `requests` for POST /session/create: every participant once per PARTICIPANTS
 * requests, in one shuffled order, restarted for every measurement (also bench/profile.js).
 */
function createRequests(members) {
  const bodies = shuffled(members, 0x637274).map(body); // "crt"
  return () => {
    let next = 0;
    return [
      {
        method: 'POST',
        path: '/session/create',
        setupRequest: (request) => {
          request.body = bodies[next++ % bodies.length];
          return request;
        },
      },
    ];
  };
}

function post(target, payload, headers) {
  return httpRequest(`${target.baseUrl}/session/create`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      ...headers,
    },
    body: payload,
  });
}

const ours = (targets) => targets.find((target) => target.name === 'ours');

/**
 * The claims of a check-in token signed with `secret` (key id k0), checked by the built service's
 * own LinkTokens (`<key id>.<base64url(JSON claims)>.<base64url(HMAC)>`); throws when it does
 * not verify.
 */
function verifyCheckinToken(token, secret) {
  const { LinkTokens } = require(path.join(DIST, 'participant-links', 'link-tokens.js'));
  const tokens = new LinkTokens({
    checkin: { tokenSecrets: [{ id: 'k0', secret }], tokenTtlHours: 24 },
    email: { linkTtlHours: 24 },
  });
  if (tokens.verify('checkin', token) === null) {
    throw new Error(`check-in token ${token} does not verify`);
  }
  const parts = token.split('.');
  return JSON.parse(Buffer.from(parts[parts.length - 2], 'base64url').toString('utf8'));
}

/**
 * A 200 answer of POST /session/create with its new session id and token masked, after checking
 * the fields, their order, the id's format and the token (signed, naming that session, for 24 h).
 */
function maskedSuccess(name, answer, { member, secret, publicBaseUrl }) {
  const text = answer.body.toString('utf8');
  const created = JSON.parse(text);
  const fail = (why) => {
    throw new Error(`POST /session/create: ${name} ${why}: ${text}`);
  };
  if (JSON.stringify(Object.keys(created)) !== JSON.stringify(RESPONSE_FIELDS)) {
    fail(`answered the fields ${Object.keys(created).join(', ')}`);
  }
  if (!SESSION_ID_PATTERN.test(created.sessionID)) fail('answered a malformed sessionID');
  if (created.userIdentifier !== member.externalId) fail(`named another participant`);
  const prefix = `${publicBaseUrl}/checkin/`;
  if (!created.redirectUrl.startsWith(prefix)) fail(`answered a redirectUrl not under ${prefix}`);
  const token = created.redirectUrl.slice(prefix.length);
  const claims = verifyCheckinToken(token, secret);
  const expiresIn = claims.exp - Date.now() / 1000;
  if (claims.p !== 'c' || claims.id !== created.sessionID || Math.abs(expiresIn - 86_400) > 120) {
    fail(`signed a token with unexpected claims ${JSON.stringify(claims)}`);
  }
  const masked = text.split(token).join('<token>').split(created.sessionID).join('<sessionID>');
  return { sessionId: created.sessionID, masked: Buffer.from(masked) };
}

/** The rows both servers inserted: pending, for the member's participant and group. */
async function checkInsertedRows(databaseUrl, sessionIds, member) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT s.session_id, s.status, s.group_id, s.return_url, s.completed_at, p.external_id
         FROM sessions s JOIN participants p ON p.id = s.participant_id
        WHERE s.session_id = ANY($1)`,
      [sessionIds],
    );
    for (const sessionId of sessionIds) {
      const row = rows.find((candidate) => candidate.session_id === sessionId);
      const expected =
        row &&
        row.status === 'created' &&
        row.completed_at === null &&
        Number(row.group_id) === member.groupId &&
        row.return_url === RETURN_URL &&
        row.external_id === member.externalId;
      if (!expected) {
        throw new Error(`session ${sessionId}: unexpected row ${JSON.stringify(row ?? null)}`);
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Before measuring: the same status and (masked) bytes from both servers for an existing member,
 * the rows they inserted, the same bytes for the error answers the reference implements, and,
 * from our service alone, the refusal of a member's email (which shows that the seeded email
 * hashes are the service's).
 */
async function checkSameAnswers(targets, { apiKey, members, secret, publicBaseUrl, databaseUrl }) {
  const [member, other] = [members[0], members.find((m) => m.groupId !== members[0].groupId)];
  const withKey = { 'x-api-key': apiKey };
  const answers = await Promise.all(targets.map((target) => post(target, body(member), withKey)));
  answers.forEach((answer, i) => {
    if (answer.status !== 200) {
      throw new Error(
        `POST /session/create: ${targets[i].name} answered ${answer.status}: ${answer.body}`,
      );
    }
  });
  const masked = answers.map((answer, i) =>
    maskedSuccess(targets[i].name, answer, { member, secret, publicBaseUrl }),
  );
  const sample = assertSameBytes(
    'POST /session/create (new sessionID and token masked)',
    targets,
    masked.map((m) => ({ status: 200, body: m.masked })),
    200,
  );
  await checkInsertedRows(
    databaseUrl,
    masked.map((m) => m.sessionId),
    member,
  );

  const same = async (what, payload, headers, status) =>
    assertSameBytes(
      what,
      targets,
      await Promise.all(targets.map((target) => post(target, payload, headers))),
      status,
    );
  await same('POST /session/create without a key', body(member), {}, 401);
  await same(
    'POST /session/create with a wrong groupKey',
    body({ ...member, groupKey: `gk_${'0'.repeat(32)}` }),
    withKey,
    400,
  );
  const notInGroup = await same(
    "POST /session/create for another group's participant",
    body({ ...other, groupId: member.groupId, groupKey: member.groupKey }),
    withKey,
    400,
  );

  const byEmail = await post(ours(targets), body({ ...member, externalId: member.email }), withKey);
  const expectedEmailAnswer = JSON.stringify({
    error:
      'This user already exists for the email and groupID provided, their externalID is ' +
      member.externalId,
  });
  if (byEmail.status !== 400 || byEmail.body.toString('utf8') !== expectedEmailAnswer) {
    throw new Error(
      `POST /session/create with a member's email: ours answered ${byEmail.status} ` +
        `${byEmail.body}, expected 400 ${expectedEmailAnswer}`,
    );
  }
  return {
    sample: sample.toString('utf8'),
    notInGroup: notInGroup.toString('utf8'),
    byEmail: expectedEmailAnswer,
  };
}

/** Sessions of the enterprise still pending: those this run (and its checks) created. */
async function countPending(databaseUrl, enterpriseId) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT count(*)::int AS n FROM sessions WHERE enterprise_id = $1 AND status = 'created'`,
      [enterpriseId],
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

const { rps: fmtRps, ms: fmtMs } = throughputFmt;

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  const [ourPort, referencePort, opsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const ourOptions = ourServiceOptions({ port: ourPort, opsPort, databaseUrl, env: SHARED_ENV });

  const seed = await seedSessionsData({ databaseUrl, serviceEnv: ourOptions.env, log });
  if (seed.members.length !== PARTICIPANTS) {
    throw new Error(`expected ${PARTICIPANTS} seeded participants, found ${seed.members.length}`);
  }
  const requests = createRequests(seed.members);

  const oursTarget = { name: 'ours', baseUrl: `http://127.0.0.1:${ourPort}`, rounds: [] };
  const reference = { name: 'reference', baseUrl: `http://127.0.0.1:${referencePort}`, rounds: [] };

  let ourProcess;
  let referenceProcess;
  let checked;
  try {
    log('Starting the service (node dist/main) and the reference server …');
    [ourProcess, referenceProcess] = await startServers({
      ourOptions,
      referenceScript: 'sessions-server.js',
      referencePort,
      name: 'reference sessions server',
    });

    const waited = await waitForSharedFeatures(databaseUrl);
    if (waited > 1)
      log(`Waited ${waited.toFixed(0)} s for the service to count the seeded features.`);
    checked = await checkSameAnswers([reference, oursTarget], {
      apiKey: seed.apiKey,
      members: seed.members,
      secret: ourOptions.env.CHECKIN_TOKEN_SECRET,
      publicBaseUrl: SHARED_ENV.PUBLIC_BASE_URL,
      databaseUrl,
    });
    log(
      'Both servers answer the same bodies but for the new sessionID and token ' +
        `(${checked.sample}), insert the same row, and answer the same 401 and 400s; ` +
        `ours refuses a member's email with ${checked.byEmail}.`,
    );

    ourProcess.resetLineCount();
    const headers = { 'x-api-key': seed.apiKey, 'content-type': 'application/json' };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of [reference, oursTarget]) {
        const figures = await measure(target.baseUrl, { headers, requests });
        target.rounds.push(figures);
        log(
          `  round ${round} ${target.name.padEnd(9)} ${fmtRps(figures.requestsPerSec)} req/s, ` +
            `p50 ${fmtMs(figures.latencyP50)}, p99 ${fmtMs(figures.latencyP99)}`,
        );
      }
    }
    oursTarget.logLines = ourProcess.lineCount();
  } finally {
    await Promise.all([stopProcess(ourProcess), stopProcess(referenceProcess)]);
  }
  const pending = await countPending(databaseUrl, seed.enterpriseId);

  summarise(oursTarget, reference);
  const ratio = oursTarget.requestsPerSec / reference.requestsPerSec;
  const result = {
    id: 'session-create',
    title: 'POST /session/create (existing participant, ok_ ID)',
    target: TARGET_RATIO,
    ratio,
    meetsTarget: ratio >= TARGET_RATIO,
    ours: oursTarget,
    reference,
    settings: {
      connections: DEFAULTS.connections,
      durationSeconds: DEFAULTS.durationSeconds,
      warmupSeconds: DEFAULTS.warmupSeconds,
      rounds: ROUNDS,
    },
    notes: [
      seed.seeded
        ? `Seeding took ${seed.seconds.toFixed(1)} s (the sessions scenario's data: ${GROUPS} ` +
          `groups, ${PARTICIPANTS.toLocaleString('en-US')} participants, ` +
          `${SESSIONS.toLocaleString('en-US')} completed sessions).`
        : `Data already seeded (the sessions scenario's); the check and the deletion of ` +
          `${seed.deletedPending.toLocaleString('en-US')} sessions left pending by the previous ` +
          `run took ${seed.seconds.toFixed(1)} s.`,
      'Requests rotate over all 10,000 participants (their `ok_` ID with their group) in one ' +
        'shuffled order, restarted for every measurement (same sequence for both servers). The ' +
        'reference runs the group lookup, the participant lookup and one autocommitted INSERT ' +
        '(its foreign key to memberships checks the membership); the service runs the group ' +
        'lookup, the participant lookup with an EXISTS membership check, and one autocommitted ' +
        'INSERT, plus its validation, the rate limit and the framework.',
      'Every answer carries a new sessionID and check-in token, so the servers are compared on ' +
        'status and bytes with those two masked (after checking the fields, their order, the ' +
        "id's format and that the token verifies and names the session for 24 h), on the row " +
        'each inserted, and byte for byte on 401 and the 400s for a wrong groupKey and another ' +
        `group's participant (${checked.notInGroup}).`,
      `${pending.toLocaleString('en-US')} sessions were created by this run (warm-ups ` +
        'included); the next run of this scenario or of `sessions` deletes them.',
    ],
  };
  if (oursTarget.logLines > 0) {
    result.notes.push(
      `The service wrote ${oursTarget.logLines} output lines while being measured (LOG_LEVEL=warn).`,
    );
  }
  log('');
  log(throughputTable(result));
  return result;
}

module.exports = { id: 'session-create', run, formatTable: throughputTable, createRequests };
