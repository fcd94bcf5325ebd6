import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { epsilonHundredths, type PrivacyFloor } from '../../common/privacy-model';
import { Database, Sql } from '../../database/database';
import { openSessionJson } from '../../sessions/transcript-codec';
import { cryptoRandom, type RandomSource } from '../releases/discrete-laplace';
import { participantScore, releaseScores } from '../releases/score-release';
import { participantWords, type ReleasedWord, releaseWords } from '../releases/word-release';
import { COHORT_SERIES, type CohortSeries } from './cohort-cell.entity';
import { CellRelease, CohortCellsRepository } from './cohort-cells.repository';
import { lastClosedDay, sealableRuns } from './sealing-runs';

/**
 * The randomness of the releases: `crypto` (discrete-laplace.ts). A provider, so that a test can
 * replay the same draws in two worlds and show that the releases depend on nothing else.
 */
export const RELEASE_RANDOMNESS = Symbol('RELEASE_RANDOMNESS');

/**
 * Seals and releases cohort cells (docs/metrics.md, "Sealed cohort cells" and "Differentially
 * private releases"), for the workers' sweep and for a group read: per series, under the group's
 * advisory lock and in one transaction, the runs of pending sessions up to the last closed day
 * that blend enough hidden participants become cells, each released once, with its noise drawn
 * now. Idempotent: sealing
 * again finds nothing new to seal.
 */
@Injectable()
export class CohortSealer {
  constructor(
    private readonly db: Database,
    private readonly cells: CohortCellsRepository,
    private readonly cipher: PiiCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RELEASE_RANDOMNESS) private readonly random: RandomSource = cryptoRandom,
  ) {}

  /** The last UTC day closed at `now`. */
  closedDay(now: Date = new Date()): string {
    return lastClosedDay(now, this.config.metrics.sealDelayMinutes);
  }

  /**
   * Seals what is due in the group's `series` (both by default) at `now`, unless it was already
   * sealed through the last closed day and nothing made that stale; answers how many cells it
   * sealed.
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
        let count = 0;
        const k = series === 'scores' ? floor.minCohortScores : floor.minCohortWords;
        for (const run of sealableRuns(
          await this.cells.pending(groupId, series, closedDay, sql),
          k,
        )) {
          // A run holds k ≥ 1 hidden participants whose sessions gave the series something;
          // words may since have gone with retention, and then the cell releases no word.
          const release = await this.release(series, run.sessionIds, floor, sql);
          if (!release) throw new Error(`a run of ${series} without values: ${run.firstDay}`);
          const cellId = await this.cells.sealRun(groupId, series, run, k, release.cell, sql);
          await this.addToPrefixes(groupId, series, cellId, run.lastDay, release, sql);
          count += 1;
        }
        await this.cells.checked(groupId, series, closedDay, sql);
        return count;
      });
    }
    return sealed;
  }

  /**
   * The release of a cell's sessions (docs/metrics.md): each participant's one value or words,
   * then the noise, drawn now. Scores: null when no session has a score. Words: no speaker
   * releases no word.
   */
  private async release(
    series: CohortSeries,
    sessionIds: readonly string[],
    floor: PrivacyFloor,
    sql: Sql,
  ): Promise<Release | null> {
    const epsilon = epsilonHundredths(floor.epsilon);
    if (series === 'scores') {
      const values = (await this.cells.meanScoresOf(sessionIds, sql)).map(participantScore);
      if (values.length === 0) return null;
      const scores = releaseScores(values, epsilon, this.random);
      return { cell: { participants: values.length, epsilon, scores }, words: [] };
    }
    const speakers = this.speakers(await this.cells.sealedWordsOf(sessionIds, sql));
    const words = releaseWords(speakers, epsilon, floor.minWordSpeakers, this.random);
    return { cell: { participants: speakers.length, epsilon, scores: null }, words };
  }

  /**
   * Each participant's words in a cell (word-release.ts): their counts over their sessions there,
   * opened here (per-session word counts are stored only encrypted), then their most frequent.
   */
  private speakers(sealed: readonly { participantId: string; wordCounts: string }[]): string[][] {
    const byParticipant = new Map<string, Map<string, number>>();
    for (const { participantId, wordCounts } of sealed) {
      const counts = byParticipant.get(participantId) ?? new Map<string, number>();
      // Counts the keys cannot open join the cell without their words, as retention's do
      // (docs/data-at-rest.md).
      for (const [word, count] of Object.entries(
        openSessionJson<Record<string, number>>(this.cipher, 'word_counts', wordCounts) ?? {},
      )) {
        counts.set(word, (counts.get(word) ?? 0) + count);
      }
      byParticipant.set(participantId, counts);
    }
    return [...byParticipant.values()]
      .map((counts) => participantWords(counts))
      .filter((words) => words.length > 0);
  }

  private async addToPrefixes(
    groupId: number,
    series: CohortSeries,
    cellId: number,
    lastDay: string,
    release: Release,
    sql: Sql,
  ): Promise<void> {
    if (series === 'scores') {
      await this.cells.addScorePrefix(groupId, cellId, lastDay, release.cell.scores!, sql);
    } else {
      await this.cells.addWords(cellId, release.words, sql);
      await this.cells.addWordPrefix(groupId, lastDay, sql);
    }
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

interface Release {
  cell: CellRelease;
  words: ReleasedWord[];
}
