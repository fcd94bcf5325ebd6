import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { Database } from '../../database/database';
import { openJson } from '../../sessions/transcript-codec';
import { COHORT_SERIES, type CohortSeries } from './cohort-cell.entity';
import { CohortCellsRepository } from './cohort-cells.repository';
import { lastClosedDay, sealableRuns } from './sealing-runs';

/**
 * Seals cohort cells (docs/metrics.md, "Sealed cohort cells"), for the workers' sweep and for a
 * group read: per series, under the group's advisory lock and in one transaction, the runs of
 * pending sessions up to the last closed day that blend enough hidden participants become cells.
 * Idempotent: sealing again finds nothing new to seal.
 */
@Injectable()
export class CohortSealer {
  constructor(
    private readonly db: Database,
    private readonly cells: CohortCellsRepository,
    private readonly cipher: PiiCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The last UTC day closed at `now`. */
  closedDay(now: Date = new Date()): string {
    return lastClosedDay(now, this.config.metrics.sealDelayMinutes);
  }

  /**
   * Seals what is due in the group's `series` (both by default) at `now`, unless it was already
   * sealed through the last closed day; answers how many cells it sealed.
   */
  async sealGroup(
    groupId: number,
    options: { now?: Date; series?: readonly CohortSeries[] } = {},
  ): Promise<number> {
    const closedDay = this.closedDay(options.now);
    let sealed = 0;
    for (const series of options.series ?? COHORT_SERIES) {
      if (!(await this.cells.dueForSealing(groupId, series, closedDay))) continue;
      sealed += await this.db.transaction(async (sql) => {
        await this.cells.lock(groupId, series, sql);
        // Another process may have sealed while this one waited for the lock.
        if (!(await this.cells.dueForSealing(groupId, series, closedDay, sql))) return 0;
        const floor = await this.cells.floorOf(groupId, sql);
        if (!floor) return 0;
        const k = series === 'scores' ? floor.minCohortScores : floor.minCohortWords;
        const runs = sealableRuns(await this.cells.pending(groupId, series, closedDay, sql), k);
        for (const run of runs) {
          if (series === 'scores') await this.cells.sealScores(groupId, run, k, sql);
          else {
            const sealed = await this.cells.sealedWordsOf(run.sessionIds, sql);
            const words = this.wordsOfEnoughSpeakers(sealed, floor.minWordSpeakers);
            await this.cells.sealWords(groupId, run, k, words, sql);
          }
        }
        await this.cells.checked(groupId, series, closedDay, sql);
        return runs.length;
      });
    }
    return sealed;
  }

  /**
   * The words of a run said by at least `speakers` distinct participants, with their counts over
   * the run's sessions (opened here: per-session word counts are stored only encrypted).
   */
  private wordsOfEnoughSpeakers(
    sealed: readonly { participantId: string; wordCounts: string }[],
    speakers: number,
  ): { word: string; count: number }[] {
    const words = new Map<string, { count: number; speakers: Set<string> }>();
    for (const { participantId, wordCounts } of sealed) {
      for (const [word, count] of Object.entries(
        openJson<Record<string, number>>(this.cipher, wordCounts),
      )) {
        const entry = words.get(word) ?? { count: 0, speakers: new Set<string>() };
        entry.count += count;
        entry.speakers.add(participantId);
        words.set(word, entry);
      }
    }
    return [...words]
      .filter(([, entry]) => entry.speakers.size >= speakers)
      .map(([word, entry]) => ({ word, count: entry.count }))
      .sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  }

  /** Seals every group with something due at `now` (the sweep); answers how many cells. */
  async sealDue(now: Date = new Date()): Promise<number> {
    let sealed = 0;
    for (const groupId of await this.cells.groupsDueForSealing(this.closedDay(now))) {
      sealed += await this.sealGroup(groupId, { now });
    }
    return sealed;
  }
}
