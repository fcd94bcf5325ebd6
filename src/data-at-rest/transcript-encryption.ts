import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { Database } from '../database/database';
import type { TranscriptTurn } from '../sessions/session.entity';
import { SessionsRepository } from '../sessions/sessions.repository';
import { sealJson, sealTranscript } from '../sessions/transcript-codec';

/**
 * Encrypts transcripts, features and word counts stored before encryption (the migrations could
 * only turn them into their JSON text: they have no key). Batches of `batchSize`, each in its own transaction with its rows
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

  /** One batch; returns how many sessions it encrypted (fewer than `batchSize`: done). */
  async encryptBatch(batchSize: number): Promise<number> {
    return this.db.transaction(async (sql) => {
      const rows = await this.sessions.lockPlaintextDetails(batchSize, sql);
      if (rows.length === 0) return 0;
      const seal = (json: string | null) =>
        json === null ? null : sealJson(this.cipher, JSON.parse(json));
      await this.sessions.storeSealedDetails(
        rows.map(({ sessionId, transcript, features, wordCounts }) => ({
          sessionId,
          transcript:
            transcript === null
              ? null
              : sealTranscript(this.cipher, JSON.parse(transcript) as TranscriptTurn[]),
          features: seal(features),
          wordCounts: seal(wordCounts),
        })),
        sql,
      );
      return rows.length;
    });
  }
}
