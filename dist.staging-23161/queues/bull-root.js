"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.bullRoot = void 0;
const bull_1 = require("@nestjs/bull");
/** The Bull connection every process shares: REDIS_URL, keys under QUEUE_PREFIX. */
const bullRoot = (config) => bull_1.BullModule.forRoot({ url: config.redis.url, prefix: config.redis.queuePrefix });
exports.bullRoot = bullRoot;
//# sourceMappingURL=bull-root.js.map