/**
 * The Check-in Integration Service's typed client: openapi-fetch over the types openapi-typescript
 * generates from the committed openapi.json (./schema.ts, `npm run openapi`). No request code is
 * written by hand: every path, parameter, body and answer is checked by the compiler.
 *
 *   const checkin = createCheckinClient({ baseUrl: 'http://localhost:3000', apiKey: 'ck_…' });
 *   const { data, error } = await checkin.POST('/groups', { body: { groupName: 'Night shift' } });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

/** The API's named schemas: `Schemas['GroupDto']`, `Schemas['GroupMhciAnswer']`, … */
export type Schemas = components['schemas'];

export type CheckinClient = Client<paths>;

export interface CheckinClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service runs, e.g. `http://localhost:3000` (no trailing slash needed). */
  baseUrl: string;
  /** Your enterprise's API key (`ck_…`), sent as `x-api-key` with every request. */
  apiKey: string;
}

export function createCheckinClient({
  baseUrl,
  apiKey,
  headers,
  ...options
}: CheckinClientOptions): CheckinClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(headers as Record<string, string> | undefined), 'x-api-key': apiKey },
  });
}
