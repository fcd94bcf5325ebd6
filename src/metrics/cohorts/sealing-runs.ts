/**
 * The sealing rule of cohort cells (docs/metrics.md, "Sealed cohort cells"), as a pure function:
 * given a group's pending sessions of one series (each on its effective day: its completion day,
 * or the day after the last sealed cell for a late result) up to the last closed day, the runs of
 * consecutive days that seal, oldest first. Greedy: a run grows one day at a time and seals as
 * soon as its sessions come from at least `floor` hidden participants.
 */

export interface PendingSession {
  sessionId: string;
  participantId: string;
  /** The effective UTC day, YYYY-MM-DD. */
  day: string;
  /** The participant's applicable level hides what this series aggregates, on this session. */
  hidden: boolean;
  /**
   * Whether the session gives the series anything (words: counted words; scores: always). A
   * session that gives nothing neither counts a participant in nor makes them visible.
   */
  contributes: boolean;
}

export interface SealableRun {
  firstDay: string;
  lastDay: string;
  sessionIds: string[];
  /** Participants all of whose contributing sessions in the run are hidden. */
  hiddenParticipants: number;
}

export function sealableRuns(pending: readonly PendingSession[], floor: number): SealableRun[] {
  const byDay = new Map<string, PendingSession[]>();
  for (const session of [...pending].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
    const day = byDay.get(session.day) ?? [];
    day.push(session);
    byDay.set(session.day, day);
  }
  const runs: SealableRun[] = [];
  let sessionIds: string[] = [];
  let firstDay: string | null = null;
  // Per participant in the run: whether every contributing session of theirs is hidden.
  let hiddenSoFar = new Map<string, boolean>();
  for (const [day, sessions] of byDay) {
    firstDay ??= day;
    for (const session of sessions) {
      sessionIds.push(session.sessionId);
      if (!session.contributes) continue;
      const before = hiddenSoFar.get(session.participantId) ?? true;
      hiddenSoFar.set(session.participantId, before && session.hidden);
    }
    const hidden = [...hiddenSoFar.values()].filter(Boolean).length;
    if (hidden >= floor) {
      runs.push({ firstDay, lastDay: day, sessionIds, hiddenParticipants: hidden });
      sessionIds = [];
      firstDay = null;
      hiddenSoFar = new Map();
    }
  }
  return runs;
}

const DAY_MS = 86_400_000;

/**
 * The last closed UTC day at `now`: a day closes `delayMinutes` after it ends (late results of
 * the day still join it). YYYY-MM-DD.
 */
export function lastClosedDay(now: Date, delayMinutes: number): string {
  const shifted = new Date(now.getTime() - delayMinutes * 60_000 - DAY_MS);
  return shifted.toISOString().slice(0, 10);
}
