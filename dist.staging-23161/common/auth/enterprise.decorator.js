"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EnterpriseId = exports.API_KEY_HEADER = void 0;
const common_1 = require("@nestjs/common");
/** The header carrying the enterprise API key. */
exports.API_KEY_HEADER = 'x-api-key';
/**
 * `@EnterpriseId() enterpriseId: string` — the calling enterprise, set by the ApiKeyGuard.
 * Every repository method that reads tenant data takes it as a parameter.
 */
exports.EnterpriseId = (0, common_1.createParamDecorator)((_, ctx) => {
    const request = ctx.switchToHttp().getRequest();
    if (!request.caller)
        throw new Error('EnterpriseId used on a route without ApiKeyGuard');
    return request.caller.enterpriseId;
});
//# sourceMappingURL=enterprise.decorator.js.map