"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OptionalBodyPipe = void 0;
exports.isAbsentBody = isAbsentBody;
const spec_validation_pipe_1 = require("./spec-validation.pipe");
/**
 * Nothing was sent: no body, an empty one, or `{}` (what a client that always sends JSON sends
 * for "nothing").
 */
function isAbsentBody(value) {
    if (value === undefined)
        return true;
    return (value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.keys(value).length === 0);
}
/**
 * An optional request body: `@Body(new OptionalBodyPipe(SomeDto)) body: SomeDto | undefined`.
 * Absent ({@link isAbsentBody}) it is `undefined`; anything else is validated exactly as a
 * required `@Body() body: SomeDto` is, by the global SpecValidationPipe's rules and messages. Type
 * the parameter as a union (its metadata is then `Object`), so the global pipe passes it through
 * untouched — after refusing a malformed body, as for every route.
 */
class OptionalBodyPipe {
    dto;
    validation = new spec_validation_pipe_1.SpecValidationPipe();
    constructor(dto) {
        this.dto = dto;
    }
    async transform(value) {
        if (isAbsentBody(value))
            return undefined;
        return (await this.validation.transform(value, { type: 'body', metatype: this.dto }));
    }
}
exports.OptionalBodyPipe = OptionalBodyPipe;
//# sourceMappingURL=optional-body.pipe.js.map