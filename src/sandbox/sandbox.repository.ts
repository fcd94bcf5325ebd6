import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import type { EmailMessageEntity } from '../interact/email-message.entity';
import { SandboxEmailEntity } from '../interact/sandbox-email.entity';
import type { ParticipantEntity } from '../participants/participant.entity';

const CAPTURED = columnsOf(SandboxEmailEntity, ['subject', 'textCiphertext', 'createdAt']);

/** A captured mail with its message's type and group and its recipient, still encrypted. */
export type CapturedEmailRow = RowOf<typeof CAPTURED> &
  Pick<EmailMessageEntity, 'type' | 'groupId'> &
  Pick<ParticipantEntity, 'externalId' | 'emailCiphertext'>;

/** The sandbox routes' SQL (the mails are captured by the email worker, interact/sending/). */
@Injectable()
export class SandboxRepository {
  constructor(private readonly db: Database) {}

  /** The enterprise's captured mails, newest first, at most `limit`. */
  async listEmails(
    enterpriseId: string,
    limit: number,
    sql: Sql = this.db,
  ): Promise<CapturedEmailRow[]> {
    return sql.rows<CapturedEmailRow>(
      `SELECT ${CAPTURED.select('c')}, e.type AS "type", e.group_id AS "groupId",
              p.external_id AS "externalId", p.email_ciphertext AS "emailCiphertext"
         FROM sandbox_emails c
         JOIN email_messages e ON e.id = c.email_message_id
         JOIN participants p ON p.id = e.participant_id
        WHERE c.enterprise_id = $1
        ORDER BY c.created_at DESC, c.email_message_id DESC
        LIMIT $2`,
      [enterpriseId, limit],
    );
  }
}
