"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SpecValidationPipe = void 0;
const common_1 = require("@nestjs/common");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const api_error_1 = require("../errors/api-error");
const request_body_1 = require("../http/request-body");
const rules_1 = require("./rules");
const PRIMITIVES = [String, Boolean, Number, Array, Object];
/**
 * The global pipe for bodies and queries (registered as APP_PIPE). It validates DTO classes
 * decorated with `@Rules` and answers 400 with the first failing field's message. Unknown fields
 * are dropped (forward compatible, never stored). A body that is not a JSON object never gets
 * here: the JSON parser marks it, and it is answered `Invalid JSON body` (request-body.ts).
 *
 * Then, whatever the DTO's own rules: no string kept from the input (values and keys, nested ones
 * too) may hold a control character, except tab, line feed and carriage return in fields declared
 * FreeText; the first field that does answers `<field> must not contain control characters`
 * (docs/security.md, "Hostile input"). A field whose own rules give a message for it (a webhook
 * `url`: `Invalid URL`) has refused it before.
 */
let SpecValidationPipe = class SpecValidationPipe {
    async transform(value, metadata) {
        const { metatype, type } = metadata;
        if (type === 'body')
            (0, request_body_1.assertWellFormedBody)(value);
        if (type === 'param' || type === 'custom')
            return value;
        if (!metatype || PRIMITIVES.includes(metatype))
            return value;
        const plain = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
        // Copy own properties only: a JSON body cannot carry a prototype, but be explicit.
        const instance = (0, class_transformer_1.plainToInstance)(metatype, { ...plain });
        const errors = await (0, class_validator_1.validate)(instance, {
            whitelist: true,
            forbidUnknownValues: false,
            stopAtFirstError: true,
            validationError: { target: false, value: false },
        });
        if (errors.length > 0) {
            const constraints = errors[0].constraints ?? {};
            const message = Object.values(constraints)[0] ?? 'Bad request';
            throw api_error_1.ApiError.badRequest(message);
        }
        for (const [field, kept] of Object.entries(instance)) {
            if (holdsControlCharacter(kept, (0, rules_1.isFreeText)(metatype, field))) {
                throw api_error_1.ApiError.badRequest((0, rules_1.controlCharactersMessage)(field));
            }
        }
        return instance;
    }
};
exports.SpecValidationPipe = SpecValidationPipe;
exports.SpecValidationPipe = SpecValidationPipe = __decorate([
    (0, common_1.Injectable)()
], SpecValidationPipe);
/** Any string in `value` (keys included) with a control character; nesting is at most 32 deep. */
function holdsControlCharacter(value, freeText) {
    if (typeof value === 'string')
        return (0, rules_1.hasControlCharacter)(value, freeText);
    if (value === null || typeof value !== 'object')
        return false;
    if (Array.isArray(value))
        return value.some((item) => holdsControlCharacter(item, freeText));
    return Object.entries(value).some(([key, item]) => (0, rules_1.hasControlCharacter)(key, freeText) || holdsControlCharacter(item, freeText));
}
//# sourceMappingURL=spec-validation.pipe.js.map