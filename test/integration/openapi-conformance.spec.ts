/**
 * The conformance check every e2e file ends with (test/support/openapi-conformance.ts) catches
 * what it is there to catch, on made-up answers checked against the committed openapi.json.
 */
import { OpenApiConformance, RecordedAnswer } from '../support/openapi-conformance';

const conformance = OpenApiConformance.fromRepository();
const json = 'application/json; charset=utf-8';
const answer = (method: string, path: string, status: number, body: unknown): RecordedAnswer => ({
  method,
  path,
  status,
  contentType: json,
  text: JSON.stringify(body),
});

describe('openapi.json conformance', () => {
  it('passes documented answers: statuses, exact messages, patterns, success bodies', () => {
    for (const documented of [
      answer('PUT', '/groups/12', 400, { error: 'groupName must not be empty' }),
      answer('PUT', '/groups/12', 400, { error: 'Invalid JSON body' }),
      answer('POST', '/groups', 415, { error: 'Unsupported media type' }),
      answer('GET', '/groups', 401, { error: 'Unauthorized' }),
      answer('GET', '/sessions/ses_x', 500, { error: 'Internal server error' }),
      answer('GET', '/groups?x=1', 200, []),
      // No such route: the documented 404; an absent path parameter: the operation's own 400.
      answer('GET', '/nope', 404, { error: 'Not found' }),
      answer('GET', '/participants', 400, {
        error: 'You are missing the path parameter externalID',
      }),
      answer('GET', '/participants/x/../../participants', 400, {
        error: 'You are missing the path parameter externalID',
      }),
    ]) {
      expect({ documented, problem: conformance.problem(documented) }).toEqual({
        documented,
        problem: null,
      });
    }
  });

  it('names each undocumented answer with its operation', () => {
    expect(conformance.problem(answer('PUT', '/groups/12', 418, { error: 'x' }))).toMatch(
      /^PUT \/groups\/\{groupID\} \(\/groups\/12\): status 418 is not documented/,
    );
    expect(
      conformance.problem(answer('PUT', '/groups/12', 400, { error: 'groupName is wrong' })),
    ).toMatch(/^PUT \/groups\/\{groupID\} .*does not match the document/);
    expect(conformance.problem(answer('GET', '/groups', 200, [{ groupID: 'one' }]))).toMatch(
      /does not match the document/,
    );
    expect(conformance.problem(answer('GET', '/nope', 404, { error: 'Nope' }))).toMatch(
      /^GET \/nope \(no operation\): 404/,
    );
    expect(
      conformance.problem(answer('GET', '/groups/12', 400, { error: 'Bad Request', x: 1 })),
    ).not.toBeNull();
  });
});
