/** The analysis engine's side of the API in tests: its token and how it posts a result. */
import type { HttpResult, TestApp } from './test-app';

/** Start the app with `{ ENGINE_TOKEN }` for the engine's requests to be accepted. */
export const ENGINE_TOKEN = 'test-engine-token-0123456789-abcdefghij';

/** The engine's `Authorization` header; none for an empty token. */
export const engineHeaders = (token = ENGINE_TOKEN): Record<string, string> =>
  token === '' ? {} : { authorization: `Bearer ${token}` };

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
