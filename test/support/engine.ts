/**
 * The analysis engine's side of the API in tests: its token, the results it posts
 * ({@link engineResult}) and how it posts them ({@link postResult}).
 */
import type { PageAnswer, PageBrowser } from './page-browser';
import type { HttpResult, TestApp } from './test-app';

/** Start the app with `{ ENGINE_TOKEN }` for the engine's requests to be accepted. */
export const ENGINE_TOKEN = 'test-engine-token-0123456789-abcdefghij';

/** The engine's `Authorization` header; none for an empty token. */
export const engineHeaders = (token = ENGINE_TOKEN): Record<string, string> =>
  token === '' ? {} : { authorization: `Bearer ${token}` };

export type Turn = { role: 'assistant' | 'user'; content: string };

/** A finished analysis as the engine posts it (src/ingestion/session-result.dto.ts). */
export interface EngineResult {
  version: string;
  mhci: number;
  subscores: { vision: number; audio: number; transcript: number; assessment: number };
  transcript: Turn[];
  features: Record<string, number>;
  completedAt?: string;
}

/** The four subscores, all `value`. */
export const subscores = (value: number): EngineResult['subscores'] => ({
  vision: value,
  audio: value,
  transcript: value,
  assessment: value,
});

/** A conversation: the assistant asks `question`, the participant answers `answer`. */
export const conversation = (question: string, answer: string): Turn[] => [
  { role: 'assistant', content: question },
  { role: 'user', content: answer },
];

/** The participant's one turn. */
export const userSays = (content: string): Turn[] => [{ role: 'user', content }];

/**
 * A result the engine could post: version v1.0.0, MHCI 60, subscores of 60, one turn ("fine"),
 * one feature; every field can be overridden (a test states the values it asserts on).
 */
export const engineResult = (overrides: Partial<EngineResult> = {}): EngineResult => ({
  version: 'v1.0.0',
  mhci: 60,
  subscores: subscores(60),
  transcript: userSays('fine'),
  features: { pitch: 1 },
  ...overrides,
});

/** POST /internal/sessions/{sessionID}/result, as the engine sends a session's result. */
export const postResult = (
  t: TestApp,
  sessionId: string,
  result: unknown,
  token = ENGINE_TOKEN,
): Promise<HttpResult> =>
  t.request('POST', `/internal/sessions/${sessionId}/result`, {
    body: result,
    headers: engineHeaders(token),
  });

/** The hand-off token in the engine address a check-in page answered with (docs/checkin-flow.md). */
export const handoffOf = (location: string | null): string => {
  const token = location === null ? null : new URL(location).searchParams.get('handoff');
  if (!token) throw new Error(`not an engine hand-off address: ${location}`);
  return token;
};

/** The engine address of a hand-off: `ENGINE_URL` with `sessionID` and `handoff`. */
export const handoffUrl = (engineUrl: string, sessionId: string, handoff: string): string =>
  `${engineUrl}?sessionID=${sessionId}&handoff=${handoff}`;

/**
 * The engine's confirm step, done by the browser it was sent: `GET /checkin/confirm?handoff=…`
 * with that browser's cookies. The browser that handed off gets 303 back to the engine address
 * with `confirmed=1`.
 */
export const confirmHandoff = (
  browser: PageBrowser,
  location: string | null,
): Promise<PageAnswer> =>
  browser.get(`/checkin/confirm?handoff=${encodeURIComponent(handoffOf(location))}`);
