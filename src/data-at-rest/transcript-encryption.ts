import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { Database } from '../database/database';
import type { TranscriptTurn } from '../sessions/session.entity';
import { SessionsRepository } from '../sessions/sessions.repository';
import { sealTranscript } from '../sessions/transcript-codec';

/**
 * Encrypts transcripts stored before encryption (the migration could only turn them into their
 * JSON text: it has no key). Batches of `batchSize`, each in its own transaction with its rows
 * locked (SKIP LOCKED: two workers split the work). A partial index holds exactly the rows left,
 * so once done a pass costs one empty index probe; the retention sweeper runs it first, at every
 * worker's start-up and then on every sweep.
 */
@Injectable()
export class TranscriptEncryption {
  constructor(
    private readonly db: Database,
    private readonly sessions: SessionsRepository,
    private readonly cipher: PiiCipher,
  ) {}

  /** One batch; returns how many transcripts it encrypted (fewer than `batchSize`: done). */
  async encryptBatch(batchSize: number): Promise<number> {
    return this.db.transaction(async (sql) => {
      const rows = await this.sessions.lockPlaintextTranscripts(batchSize, sql);
      if (rows.length === 0) return 0;
      await this.sessions.storeSealedTranscripts(
        rows.map(({ sessionId, transcript }) => ({
          sessionId,
          transcript: sealTranscript(this.cipher, JSON.parse(transcript) as TranscriptTurn[]),
        })),
        sql,
      );
      return rows.length;
    });
  }
}
