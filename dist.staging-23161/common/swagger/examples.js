"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EXAMPLE_IDS = void 0;
/**
 * Identifiers the OpenAPI document's examples share, each in the exact format the service
 * generates (src/common/ids.ts), so that an example is a value a real answer could carry: one
 * participant, one session, one event across the document. test/openapi.e2e-spec.ts checks every
 * example identifier against its format.
 */
exports.EXAMPLE_IDS = {
    groupId: 12,
    externalId: 'ok_834f24704ccb7d16d6bfea64a89d3ddca1f821cce9a00f2b',
    sessionId: 'ses_1a2B3c4D5e6F7g8H9i0JkLmN',
    eventId: 'evt_f9f914f7f00d492fd369931285ef0adfbc4a9dd127091bb0',
};
//# sourceMappingURL=examples.js.map