import { IngestionErrors } from '../ingestion/ingestion.errors';
import type { IngestionService } from '../ingestion/ingestion.service';
import type { SessionResultDto } from '../ingestion/session-result.dto';
import { SYNTHETIC_ENGINE_VERSION } from '../ingestion/synthetic-result';
import type { PiiCipher } from '../common/crypto/pii-cipher';
import { ApiError } from '../common/errors/api-error';
import type { SessionDto } from '../sessions/dto/session.dto';
import type { SessionsService } from '../sessions/sessions.service';
import { SandboxErrors } from './sandbox.errors';
import type { SandboxRepository } from './sandbox.repository';
import { SandboxService } from './sandbox.service';

const ENTERPRISE = '00000000-0000-4000-8000-000000000001';
const SESSION = 'ses_AAAAAAAAAAAAAAAAAAAAAAAA';
const VIEW = { sessionID: SESSION } as SessionDto;
const RESULT: SessionResultDto = {
  version: 'v2.0.0',
  mhci: 50,
  subscores: { vision: 50, audio: 50, transcript: 50, assessment: 50 },
  transcript: [],
  features: {},
};

/** The service over stand-ins: `ingest` does what the test says; calls are recorded. */
function serviceWith(ingest: () => Promise<unknown>) {
  const calls: string[] = [];
  const ingested: { result: SessionResultDto; options: unknown }[] = [];
  const sessions = {
    findOwned: (enterpriseId: string, sessionId: string) => {
      calls.push(`findOwned ${enterpriseId} ${sessionId}`);
      return sessionId === SESSION
        ? Promise.resolve({})
        : Promise.reject(ApiError.badRequest(SandboxErrors.SessionNotFound));
    },
    get: (enterpriseId: string, sessionId: string) => {
      calls.push(`get ${enterpriseId} ${sessionId}`);
      return Promise.resolve(VIEW);
    },
  } as unknown as SessionsService;
  const ingestion = {
    ingest: (sessionId: string, result: SessionResultDto, options: unknown) => {
      calls.push(`ingest ${sessionId}`);
      ingested.push({ result, options });
      return ingest();
    },
  } as unknown as IngestionService;
  const service = new SandboxService(sessions, ingestion, {} as SandboxRepository, {} as PiiCipher);
  return { service, calls, ingested };
}

const failure = async (work: Promise<unknown>): Promise<ApiError> => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
};

describe('SandboxService.complete', () => {
  it("checks the session is the caller's, ingests, then answers the session as GET shows it", async () => {
    const { service, calls, ingested } = serviceWith(() => Promise.resolve('completed'));
    await expect(service.complete(ENTERPRISE, SESSION, RESULT)).resolves.toBe(VIEW);
    expect(calls).toEqual([
      `findOwned ${ENTERPRISE} ${SESSION}`,
      `ingest ${SESSION}`,
      `get ${ENTERPRISE} ${SESSION}`,
    ]);
    expect(ingested).toEqual([{ result: RESULT, options: { synthetic: true } }]);
  });

  it('makes a synthetic result up when none is given', async () => {
    const { service, ingested } = serviceWith(() => Promise.resolve('completed'));
    await service.complete(ENTERPRISE, SESSION, undefined);
    expect(ingested[0].result.version).toBe(SYNTHETIC_ENGINE_VERSION);
    expect(ingested[0].options).toEqual({ synthetic: true });
  });

  it('answers 200 for the same result again (ingestion recorded it already)', async () => {
    const { service } = serviceWith(() => Promise.resolve('already-recorded'));
    await expect(service.complete(ENTERPRISE, SESSION, RESULT)).resolves.toBe(VIEW);
  });

  it("does not ingest a session that is not the caller's", async () => {
    const { service, calls } = serviceWith(() => Promise.resolve('completed'));
    const error = await failure(service.complete(ENTERPRISE, 'ses_other', RESULT));
    expect([error.status, error.message]).toEqual([400, SandboxErrors.SessionNotFound]);
    expect(calls).toEqual([`findOwned ${ENTERPRISE} ses_other`]);
  });

  it('says "Session already completed" where ingestion says a different result was recorded', async () => {
    for (const result of [RESULT, undefined]) {
      const { service } = serviceWith(() =>
        Promise.reject(new ApiError(409, IngestionErrors.DifferentResult)),
      );
      const error = await failure(service.complete(ENTERPRISE, SESSION, result));
      expect([error.status, error.message]).toEqual([409, SandboxErrors.AlreadyCompleted]);
    }
    expect(SandboxErrors.AlreadyCompleted).toBe('Session already completed');
  });

  it("keeps ingestion's other refusals as they are (consent missing)", async () => {
    const { service } = serviceWith(() =>
      Promise.reject(new ApiError(409, IngestionErrors.ConsentMissing)),
    );
    const error = await failure(service.complete(ENTERPRISE, SESSION, undefined));
    expect([error.status, error.message]).toEqual([409, IngestionErrors.ConsentMissing]);
  });
});
