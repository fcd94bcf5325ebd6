import { Injectable } from '@nestjs/common';
import { IngestionErrors } from '../ingestion/ingestion.errors';
import { IngestionService } from '../ingestion/ingestion.service';
import type { SessionResultDto } from '../ingestion/session-result.dto';
import { syntheticResult } from '../ingestion/synthetic-result';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { openSealed } from '../common/crypto/sealed-reads';
import { ApiError } from '../common/errors/api-error';
import type { SessionDto } from '../sessions/dto/session.dto';
import { SessionsService } from '../sessions/sessions.service';
import type { SandboxEmailDto } from './dto/sandbox-email.dto';
import { SANDBOX_EMAILS_LIMIT, SandboxErrors } from './sandbox.errors';
import { SandboxRepository } from './sandbox.repository';

/**
 * Sandbox enterprises (docs/integrating.md), like a payment API's test mode: complete a session without
 * the analysis engine, through the real ingestion path, and read the mails the email worker
 * captured instead of sending them. Only sandbox enterprises get here (SandboxEnterpriseGuard).
 */
@Injectable()
export class SandboxService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly ingestion: IngestionService,
    private readonly repository: SandboxRepository,
    private readonly cipher: PiiCipher,
  ) {}

  /**
   * Completes the enterprise's session with `result`, or with a synthetic one when none is given,
   * through ingestion (result, percentiles, rollups, credit, `user.session.result` event: one
   * transaction), and answers the session as `GET /sessions/{sessionID}` shows it — limited by
   * the participant's privacy level like any read. Every sandbox completion is flagged
   * `synthetic`: no engine scored it.
   *
   * The same explicit result again changes nothing (ingestion's idempotence). Any other
   * completion of a completed session — a synthetic one, or a different result — is 409
   * `Session already completed`. A group that requires consent the member has not given keeps
   * ingestion's 409.
   */
  async complete(
    enterpriseId: string,
    sessionId: string,
    result: SessionResultDto | undefined,
  ): Promise<SessionDto> {
    // Tenancy before anything: ingestion itself looks sessions up across every enterprise.
    await this.sessions.findOwned(enterpriseId, sessionId);
    try {
      await this.ingestion.ingest(sessionId, result ?? syntheticResult(), { synthetic: true });
    } catch (error) {
      if (error instanceof ApiError && error.message === IngestionErrors.DifferentResult) {
        throw new ApiError(409, SandboxErrors.AlreadyCompleted);
      }
      throw error;
    }
    return this.sessions.get(enterpriseId, sessionId);
  }

  /**
   * The enterprise's captured mails, newest first, at most {@link SANDBOX_EMAILS_LIMIT}. A mail
   * whose address or text the keys cannot open is left out, as if removed (docs/data-at-rest.md,
   * "Data the keys cannot open").
   */
  async emails(enterpriseId: string): Promise<SandboxEmailDto[]> {
    const rows = await this.repository.listEmails(enterpriseId, SANDBOX_EMAILS_LIMIT);
    return rows.flatMap((row) => {
      const to = openSealed(this.cipher, 'participants.email_ciphertext', row.emailCiphertext);
      const text = openSealed(this.cipher, 'sandbox_emails.text_ciphertext', row.textCiphertext);
      if (to === null || text === null) return [];
      return [
        {
          to,
          userIdentifier: row.externalId,
          emailType: row.type,
          subject: row.subject,
          text,
          groupID: row.groupId,
          createdAt: row.createdAt.toISOString(),
        },
      ];
    });
  }
}
