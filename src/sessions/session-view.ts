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
    view.subscores = result.subscores;
  }
  if (level >= 2) view.groupPercentiles = result.groupPercentiles;
  if (level >= 3) view.userPercentiles = result.userPercentiles;
  if (level >= 4) view.transcript = result.transcript;
  if (level >= 5) view.features = result.features;
  return view;
}
