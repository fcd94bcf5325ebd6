'use strict';

/**
 * Reference implementation of `GET /sessions/{sessionID}` and of `POST /session/create` for an
 * existing participant (`userIdentifier` = their `ok_` external ID): bare Fastify + pg, the same
 * API key check and cache as groups-server.js, the service's own SQL, the same JSON, and nothing
 * else.
 *
 * "The service's own SQL" literally: the statements are taken at start-up from the built
 * service's repositories (dist/sessions/sessions.repository.js, dist/groups/groups.repository.js,
 * dist/participants/participants.repository.js, each called once with a recording stand-in for
 * its database), so the reference cannot drift from what the service sends. --print-sql prints
 * them. What is not framework is the service's own code too: the session view, identifier
 * generation, key comparison and token signing are called from dist/, and the pool has the
 * service's type parsers (bigint as numbers).
 *
 * - GET /sessions/{id}: the session-id pattern check, SessionsRepository.findForEnterprise (one
 *   SELECT joining sessions, memberships and participants), the fields of the membership's
 *   privacy level now (docs/privacy.md), as the service's sessionView writes them — the transcript
 *   decrypted with the service's own codec and data keys (DATA_ENCRYPTION_KEY[S]), as the service
 *   must: the reference does the same work except the framework's.
 * - POST /session/create: a minimal body check (types, https returnURL), the group
 *   (GroupsRepository.findForEnterprise) and a constant-time comparison of its key, the
 *   participant (ParticipantsRepository.findForEnterprise), then the session row
 *   (SessionsRepository.insert) as a single autocommitted INSERT, whose foreign key to
 *   memberships stands in for the membership check; a new `ses_` id and a signed check-in token.
 *   The service makes the same
 *   three round trips (its participant lookup adds an EXISTS membership check); its full
 *   validation, the rate limit and the framework are what the benchmark measures against this
 *   ceiling. Email identifiers (first sessions) are not handled.
 *
 *   node bench/reference/sessions-server.js [--port N] [--host H] [--print-sql]
 *
 * Environment: PORT (default 3102), HOST (default 127.0.0.1), DATABASE_URL, DB_POOL_SIZE
 * (default 10), DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_KEYS (the service's, to read transcripts),
 * and for POST /session/create CHECKIN_TOKEN_SECRET (required there),
 * CHECKIN_TOKEN_TTL_HOURS (default 24) and PUBLIC_BASE_URL (default http://localhost:<port>), the
 * service's variables and defaults.
 */

const path = require('node:path');
const { URL } = require('node:url');
const fastify = require('fastify');
const {
  createAuthenticator,
  exitOnStartFailure,
  option,
  serveReference,
} = require('./groups-server');

const DIST = path.join(__dirname, '..', '..', 'dist');
const DEFAULT_PORT = 3102;

const SESSION_CREATED_MESSAGE = 'Redirect URL generated successfully.';
/** PostgreSQL's foreign_key_violation: the INSERT's (participant, group) is no membership. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Calls `call(stand-in)` once and returns the one statement it sent, after checking that its
 * parameters are exactly `expectedParams` (the reference passes its own in that order).
 */
function recordStatement(name, call, expectedParams) {
  const statements = [];
  const standIn = {
    rows: async (text, params) => {
      statements.push({ text, params });
      return [];
    },
  };
  // The repositories call rows() synchronously, before their first await.
  call(standIn).catch(() => undefined);
  if (statements.length !== 1) {
    throw new Error(`${name} sent ${statements.length} statements, expected 1`);
  }
  const [{ text, params }] = statements;
  if (JSON.stringify(params) !== JSON.stringify(expectedParams)) {
    throw new Error(`${name} parameters changed: ${JSON.stringify(params)}`);
  }
  return text;
}

function load(relative) {
  try {
    return require(path.join(DIST, relative));
  } catch (error) {
    throw new Error(`Cannot load dist/${relative} (${error.message}); run "npm run build"`, {
      cause: error,
    });
  }
}

/** The service's statements for these two endpoints, taken from the built repositories. */
function serviceStatements() {
  const { SessionsRepository } = load('sessions/sessions.repository.js');
  const { GroupsRepository } = load('groups/groups.repository.js');
  const { ParticipantsRepository } = load('participants/participants.repository.js');
  return {
    /** (sessionId, enterpriseId) */
    findSession: recordStatement(
      'SessionsRepository.findForEnterprise',
      (db) => new SessionsRepository(db).findForEnterprise('E', 'S'),
      ['S', 'E'],
    ),
    /** (groupId, enterpriseId) */
    findGroup: recordStatement(
      'GroupsRepository.findForEnterprise',
      (db) => new GroupsRepository(db).findForEnterprise('E', -1),
      [-1, 'E'],
    ),
    /** (enterpriseId, externalId) */
    findParticipant: recordStatement(
      'ParticipantsRepository.findForEnterprise',
      (db) => new ParticipantsRepository(db).findForEnterprise('E', 'X', db),
      ['E', 'X'],
    ),
    /** (sessionId, enterpriseId, participantId, groupId, returnUrl) */
    insertSession: recordStatement(
      'SessionsRepository.insert',
      (db) =>
        new SessionsRepository(db).insert(
          {
            sessionId: 'S',
            enterpriseId: 'E',
            participantId: 'P',
            groupId: -1,
            returnUrl: 'R',
          },
          db,
        ),
      ['S', 'E', 'P', -1, 'R'],
    ),
  };
}

/**
 * The service's own pure code: session view, transcript decryption, ids, key comparison,
 * check-in token signing.
 */
const { sessionView } = load('sessions/session-view.js');
const { openJson } = load('sessions/transcript-codec.js');
const { PiiCipher } = load('common/crypto/pii-cipher.js');
const { loadConfig } = load('config/config.js');
const { newSessionId, SESSION_ID_PATTERN, EXTERNAL_ID_PATTERN } = load('common/ids.js');
const { sameSecret } = load('common/crypto/secrets.js');
const { LinkTokens } = load('participant-links/link-tokens.js');

/** LinkTokens.sign('checkin', sessionId), as the service signs check-in links. */
function createCheckinSigner(secret, ttlHours) {
  const tokens = new LinkTokens({
    checkin: { tokenSecrets: [{ id: 'k0', secret }], tokenTtlHours: ttlHours },
    email: { linkTtlHours: ttlHours },
  });
  return (sessionId) => tokens.sign('checkin', sessionId);
}

function isHttpsUrl(value) {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

const badRequest = (reply, error) => reply.code(400).send({ error });

/**
 * Opens stored transcripts as the service does: AES-256-GCM under the data keys of
 * DATA_ENCRYPTION_KEY / DATA_ENCRYPTION_KEYS (read with the service's own loadConfig), only when
 * the level shows the transcript (sessionView asks).
 */
function createTranscriptOpener(env) {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY,
    DATA_ENCRYPTION_KEYS: env.DATA_ENCRYPTION_KEYS,
  });
  const cipher = PiiCipher.fromKeys(config.dataEncryptionKey, config.dataKeys);
  // The service's own opener of sealed values: the transcript at level 4, the features at 5.
  return (stored) => openJson(cipher, stored);
}

function buildServer(
  pool,
  { statements = serviceStatements(), checkin = {}, openStored = createTranscriptOpener({}) } = {},
) {
  const authenticate = createAuthenticator(pool);
  const signCheckin = checkin.secret
    ? createCheckinSigner(checkin.secret, checkin.ttlHours ?? 24)
    : null;
  const app = fastify({ logger: false });

  const caller = async (request, reply) => {
    const header = request.headers['x-api-key'];
    const key = await authenticate(Array.isArray(header) ? undefined : header);
    if (!key) reply.code(401).send({ error: 'Unauthorized' });
    return key;
  };

  app.get('/sessions/:sessionID', async (request, reply) => {
    const key = await caller(request, reply);
    if (!key) return reply;
    const { sessionID } = request.params;
    if (!SESSION_ID_PATTERN.test(sessionID)) return badRequest(reply, 'Session not found');
    const { rows } = await pool.query(statements.findSession, [sessionID, key.enterpriseId]);
    if (rows.length === 0) return badRequest(reply, 'Session not found');
    return sessionView(rows[0], openStored);
  });

  app.post('/session/create', async (request, reply) => {
    const key = await caller(request, reply);
    if (!key) return reply;
    if (!signCheckin) throw new Error('CHECKIN_TOKEN_SECRET is not set');
    const body = request.body;
    // The benchmark only sends valid bodies; the service's full validation is not reproduced.
    if (
      !body ||
      typeof body.groupID !== 'number' ||
      typeof body.groupKey !== 'string' ||
      typeof body.userIdentifier !== 'string' ||
      typeof body.returnURL !== 'string' ||
      !isHttpsUrl(body.returnURL)
    ) {
      return badRequest(reply, 'Invalid body');
    }
    const groupId = body.groupID;
    const groups =
      Number.isSafeInteger(groupId) && groupId > 0
        ? (await pool.query(statements.findGroup, [groupId, key.enterpriseId])).rows
        : [];
    if (groups.length === 0) return badRequest(reply, 'Group not found');
    if (!sameSecret(body.groupKey, groups[0].key)) return badRequest(reply, 'Invalid groupKey');
    const identifier = body.userIdentifier.trim();
    const invalidIdentifier = 'We require email for new users or ok_ id for existing users';
    if (!EXTERNAL_ID_PATTERN.test(identifier)) return badRequest(reply, invalidIdentifier);
    const participants = (
      await pool.query(statements.findParticipant, [key.enterpriseId, identifier])
    ).rows;
    if (participants.length === 0) return badRequest(reply, invalidIdentifier);
    const sessionId = newSessionId();
    try {
      await pool.query(statements.insertSession, [
        sessionId,
        key.enterpriseId,
        participants[0].id,
        groupId,
        body.returnURL,
      ]);
    } catch (error) {
      if (error.code !== FOREIGN_KEY_VIOLATION) throw error;
      return badRequest(reply, `User ${identifier} is not part of group ${groupId}`);
    }
    return {
      success: true,
      message: SESSION_CREATED_MESSAGE,
      userIdentifier: participants[0].externalId,
      redirectUrl: `${checkin.publicBaseUrl}/checkin/${signCheckin(sessionId)}`,
      sessionID: sessionId,
    };
  });

  app.get('/health', async () => {
    await pool.query('SELECT 1');
    return { status: 'ok' };
  });

  return app;
}

async function main() {
  const argv = process.argv.slice(2);
  const statements = serviceStatements();
  if (argv.includes('--print-sql')) {
    for (const [name, statement] of Object.entries(statements)) {
      // A statement the service prepares is a { name, text } (src/database/database.ts), which
      // pg prepares here too; the others are plain text.
      const text =
        typeof statement === 'string'
          ? statement
          : `${statement.text}  -- prepared as ${statement.name}`;
      console.log(`-- ${name}\n${text}\n`);
    }
    return;
  }
  const port = Number(option(argv, 'port') ?? process.env.PORT ?? DEFAULT_PORT);
  const checkin = {
    secret: process.env.CHECKIN_TOKEN_SECRET,
    ttlHours: Number(process.env.CHECKIN_TOKEN_TTL_HOURS || 24),
    publicBaseUrl: process.env.PUBLIC_BASE_URL || `http://localhost:${port}`,
  };
  const openStored = createTranscriptOpener(process.env);
  await serveReference((pool) => buildServer(pool, { statements, checkin, openStored }), {
    defaultPort: DEFAULT_PORT,
    applicationName: 'checkin-bench-reference-sessions',
  });
}

if (require.main === module) {
  main().catch(exitOnStartFailure);
}

module.exports = { buildServer, serviceStatements, sessionView };
