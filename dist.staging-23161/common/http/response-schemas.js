"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.okAnswer = exports.GROUP_SCHEMA = void 0;
const string = { type: 'string' };
const number = { type: 'number' };
/** GroupDto (spec "Group"). */
exports.GROUP_SCHEMA = {
    type: 'object',
    properties: {
        groupID: number,
        groupName: string,
        requestedPrivacyLevel: { type: 'array', items: string },
        inviteCode: string,
        key: string,
        consentRequired: string,
        credits: number,
    },
};
/** The route schema (`@RouteSchema`) whose 200 answer is written with `schema`. */
const okAnswer = (schema) => ({
    response: { 200: schema },
});
exports.okAnswer = okAnswer;
//# sourceMappingURL=response-schemas.js.map