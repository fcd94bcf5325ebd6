/** One HTTP request to a running service, its answer read whole (and parsed when it is JSON). */

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  body: unknown;
}

export interface RequestOptions {
  apiKey?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with `contentType` (default application/json). */
  rawBody?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  let payload: string | Buffer | undefined;
  if (options.rawBody !== undefined) {
    payload = options.rawBody;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}
