"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Public = exports.IS_PUBLIC = void 0;
const common_1 = require("@nestjs/common");
exports.IS_PUBLIC = 'checkin:isPublic';
/**
 * Marks a route as reachable without an API key. The ApiKeyGuard is global and
 * deny-by-default: every route without this decorator needs `x-api-key`.
 */
const Public = () => (0, common_1.SetMetadata)(exports.IS_PUBLIC, true);
exports.Public = Public;
//# sourceMappingURL=public.decorator.js.map