import { sessionFieldsAt } from '../common/privacy-model';
import { sessionView, SessionRecord } from './session-view';

/** The stored form here is the plain JSON (the codec's own tests cover encryption). */
const open = (stored: string): unknown => JSON.parse(stored);

const completed: SessionRecord = {
  sessionId: 'ses_AAAAAAAAAAAAAAAAAAAAAAAA',
  externalId: `ok_${'a'.repeat(48)}`,
  groupId: 7,
  createdAt: new Date('2026-11-20T10:00:00Z'),
  completedAt: new Date('2026-11-20T10:12:30Z'),
  version: 'v2.3.1',
  privacyLevel: 0,
  mhci: 71.5,
  subscores: { vision: 60, audio: 70, transcript: 80, assessment: 75 },
  groupPercentiles: { pitch: 0.5 },
  userPercentiles: { pitch: 0.25 },
  transcript: JSON.stringify([{ role: 'assistant', content: 'How are you?' }]),
  features: JSON.stringify({ pitch: 0.8 }),
  biometric: true,
};

describe('sessionView', () => {
  it.each([0, 1, 2, 3, 4, 5])(
    'level %i shows exactly the fields the model reveals, in order',
    (level) => {
      const view = sessionView({ ...completed, privacyLevel: level }, open);
      expect(Object.keys(view)).toEqual(sessionFieldsAt(level));
    },
  );

  it('orders subscores as the spec does and name maps alphabetically, whatever jsonb returned', () => {
    const view = sessionView(
      {
        ...completed,
        privacyLevel: 5,
        subscores: { audio: 1, vision: 2, assessment: 3, transcript: 4 },
        features: JSON.stringify({ pace: 1, loudness: 2, jitter: 3 }),
      },
      open,
    );
    expect(Object.keys(view.subscores as object)).toEqual([
      'vision',
      'audio',
      'transcript',
      'assessment',
    ]);
    expect(Object.keys(view.features as object)).toEqual(['jitter', 'loudness', 'pace']);
  });

  it('with biometric inference off, leaves out vision, audio and every voice or face feature and percentile, at every level', () => {
    const session: SessionRecord = {
      ...completed,
      biometric: false,
      groupPercentiles: { pitch: 0.5, 'transcript.valence': 0.4 },
      userPercentiles: { pitch: 0.25, 'assessment.sleep': 0.75 },
      features: JSON.stringify({ pitch: 0.8, 'transcript.valence': 0.1, 'assessment.sleep': 3 }),
    };
    const view = sessionView({ ...session, privacyLevel: 5 }, open);
    expect(view.subscores).toEqual({ transcript: 80, assessment: 75 });
    expect(view.groupPercentiles).toEqual({ 'transcript.valence': 0.4 });
    expect(view.userPercentiles).toEqual({ 'assessment.sleep': 0.75 });
    expect(view.features).toEqual({ 'assessment.sleep': 3, 'transcript.valence': 0.1 });
    for (const level of [1, 2, 3, 4, 5]) {
      const text = JSON.stringify(sessionView({ ...session, privacyLevel: level }, open));
      expect(text).not.toMatch(/vision|audio|pitch/);
    }
    // The same session with inference allowed shows everything stored.
    expect(sessionView({ ...session, biometric: true, privacyLevel: 5 }, open).subscores).toEqual(
      completed.subscores,
    );
  });

  it('level 0 carries the completion time, the group as a number and the engine version', () => {
    expect(sessionView(completed, open)).toEqual({
      externalID: completed.externalId,
      sessionID: completed.sessionId,
      timestamp: '2026-11-20T10:12:30.000Z',
      groupID: 7,
      version: 'v2.3.1',
    });
  });

  it('a pending session shows level 0 only, with its creation time and v0.0.0', () => {
    const pending: SessionRecord = {
      ...completed,
      completedAt: null,
      version: null,
      mhci: null,
      subscores: null,
      groupPercentiles: null,
      userPercentiles: null,
      transcript: null,
      features: null,
      privacyLevel: 5,
    };
    expect(sessionView(pending, open)).toEqual({
      externalID: completed.externalId,
      sessionID: completed.sessionId,
      timestamp: '2026-11-20T10:00:00.000Z',
      groupID: 7,
      version: 'v0.0.0',
    });
  });

  it('opens the transcript only when the level shows it; a removed one is an empty array', () => {
    const opened: string[] = [];
    const spy = (stored: string): unknown => {
      opened.push(stored);
      return open(stored);
    };
    sessionView({ ...completed, privacyLevel: 3 }, spy);
    expect(opened).toEqual([]);
    expect(sessionView({ ...completed, privacyLevel: 4 }, spy).transcript).toEqual([
      { role: 'assistant', content: 'How are you?' },
    ]);
    expect(opened).toHaveLength(1);
    const expired = { ...completed, privacyLevel: 5, transcript: null, features: null };
    expect(sessionView(expired, spy)).toMatchObject({ transcript: [], features: {} });
  });
});
