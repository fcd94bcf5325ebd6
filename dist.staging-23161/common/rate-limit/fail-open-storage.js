"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FailOpenThrottlerStorage = void 0;
const common_1 = require("@nestjs/common");
const WARN_INTERVAL_MS = 10_000;
/**
 * Wraps the Redis throttler storage so that a Redis outage lets requests through instead of
 * failing them: the rate limit protects the service, it must not take it down. The outage is
 * logged at most every 10 s.
 */
class FailOpenThrottlerStorage {
    inner;
    logger = new common_1.Logger('RateLimit');
    lastWarning = 0;
    constructor(inner) {
        this.inner = inner;
    }
    async increment(key, ttl, limit, blockDuration, throttlerName) {
        try {
            return await this.inner.increment(key, ttl, limit, blockDuration, throttlerName);
        }
        catch (error) {
            const now = Date.now();
            if (now - this.lastWarning >= WARN_INTERVAL_MS) {
                this.lastWarning = now;
                this.logger.warn(`Rate limit not enforced: Redis did not answer (${error.message})`);
            }
            return { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
        }
    }
}
exports.FailOpenThrottlerStorage = FailOpenThrottlerStorage;
//# sourceMappingURL=fail-open-storage.js.map