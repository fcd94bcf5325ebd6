"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.GroupIdParam = exports.GroupIdPipe = void 0;
exports.parseNumericId = parseNumericId;
exports.missingPathParameterError = missingPathParameterError;
exports.AbsentPathParameters = AbsentPathParameters;
/**
 * Path parameters (docs/api.md). "Absent" parameters are real requests (`GET /groups//participants`,
 * `DELETE /webhooks/12/`): controllers declare them with `@AbsentPathParameters(…)`, so they
 * are authenticated first like every other route.
 */
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const api_error_1 = require("../errors/api-error");
const common_errors_1 = require("../errors/common.errors");
/**
 * Numeric ids are whole decimal numbers. Ids beyond 2^53 cannot exist (docs/design.md: they fit in a
 * JSON number), so they become 0, which matches no row and yields the module's "not found".
 */
function parseNumericId(name, raw) {
    if (raw === undefined || raw === '')
        throw api_error_1.ApiError.badRequest((0, common_errors_1.missingPathParameter)(name));
    if (!/^\d+$/.test(raw))
        throw api_error_1.ApiError.badRequest((0, common_errors_1.mustBeNumber)(name));
    const value = Number(raw);
    return Number.isSafeInteger(value) ? value : 0;
}
let GroupIdPipe = class GroupIdPipe {
    transform(raw) {
        return parseNumericId('groupID', raw);
    }
};
exports.GroupIdPipe = GroupIdPipe;
exports.GroupIdPipe = GroupIdPipe = __decorate([
    (0, common_1.Injectable)()
], GroupIdPipe);
/** `@GroupIdParam() groupId: number` — the `groupID` path parameter, validated. */
const GroupIdParam = () => (0, common_1.Param)('groupID', GroupIdPipe);
exports.GroupIdParam = GroupIdParam;
/** Thrown by the explicit routes whose path lacks a parameter. */
function missingPathParameterError(name) {
    return api_error_1.ApiError.badRequest((0, common_errors_1.missingPathParameter)(name));
}
/**
 * Declares a controller's "absent parameter" routes (docs/api.md): each answers 400
 * `You are missing the path parameter <name>`, after authentication like any route, and is left
 * out of the OpenAPI document. One line per route instead of a stub method each.
 */
function AbsentPathParameters(...routes) {
    return (controller) => {
        const prototype = controller.prototype;
        routes.forEach((route, index) => {
            const name = `absentPathParameter${index}`;
            const handler = () => {
                throw missingPathParameterError(route.missing);
            };
            Object.defineProperty(prototype, name, { value: handler, configurable: true });
            const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
            (route.checkFirst ?? []).forEach(([parameter, pipe], position) => (0, common_1.Param)(parameter, pipe)(prototype, name, position));
            (0, common_1.RequestMapping)({ path: route.path, method: common_1.RequestMethod[route.method] })(prototype, name, descriptor);
            (0, swagger_1.ApiExcludeEndpoint)()(prototype, name, descriptor);
        });
    };
}
//# sourceMappingURL=path-params.js.map