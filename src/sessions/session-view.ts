/**
 * What an enterprise sees of a session (spec "Session", DESIGN §7): the cumulative fields of the
 * privacy level in force now for the session's membership; level 0 while the result is pending.
 */
export interface SessionResultFields {
  mhci: number;
  subscores: { vision: number; audio: number; transcript: number; assessment: number };
  groupPercentiles: Record<string, number>;
  userPercentiles: Record<string, number>;
  transcript: { role: 'assistant' | 'user'; content: string }[];
  features: Record<string, number>;
}

export interface SessionRecord {
  sessionId: string;
  externalId: string;
  groupId: number;
  createdAt: Date;
  completedAt: Date | null;
  version: string | null;
  /** The membership's privacy level now. */
  privacyLevel: number;
  result: SessionResultFields | null;
}

export const PENDING_VERSION = 'v0.0.0';

/**
 * Objects are stored as jsonb, which reorders keys (shortest first). Answers use a stable,
 * readable order instead: subscores as the spec lists them, name maps alphabetically.
 */
const inSpecOrder = (s: SessionResultFields['subscores']) => ({
  vision: s.vision,
  audio: s.audio,
  transcript: s.transcript,
  assessment: s.assessment,
});
const byName = (map: Record<string, number>): Record<string, number> => {
  const sorted: Record<string, number> = {};
  for (const name of Object.keys(map).sort()) sorted[name] = map[name];
  return sorted;
};

export function sessionView(session: SessionRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    externalID: session.externalId,
    sessionID: session.sessionId,
    timestamp: (session.completedAt ?? session.createdAt).toISOString(),
    groupID: session.groupId,
    version: session.version ?? PENDING_VERSION,
  };
  const { result } = session;
  if (!result) return view;
  const level = session.privacyLevel;
  if (level >= 1) {
    view.mhci = result.mhci;
    view.subscores = inSpecOrder(result.subscores);
  }
  if (level >= 2) view.groupPercentiles = byName(result.groupPercentiles);
  if (level >= 3) view.userPercentiles = byName(result.userPercentiles);
  if (level >= 4) view.transcript = result.transcript;
  if (level >= 5) view.features = byName(result.features);
  return view;
}
