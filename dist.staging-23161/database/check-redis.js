"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkRedis = checkRedis;
const ioredis_1 = __importDefault(require("ioredis"));
const dependency_errors_1 = require("./dependency-errors");
/** Fails with one clear line when Redis does not answer a PING. */
async function checkRedis(redisUrl) {
    const client = new ioredis_1.default(redisUrl, {
        lazyConnect: true,
        connectTimeout: 3_000,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        enableOfflineQueue: false,
    });
    // ioredis reports the cause (ECONNREFUSED, …) on 'error' and only "Connection is closed" on the
    // rejected promise; keep the cause for the message.
    let cause;
    client.on('error', (error) => (cause ??= error));
    try {
        await client.connect();
        await client.ping();
    }
    catch (error) {
        throw new dependency_errors_1.DependencyUnavailableError('Redis', (0, dependency_errors_1.describeLocation)(redisUrl), (0, dependency_errors_1.describeReason)(cause ?? error));
    }
    finally {
        client.disconnect();
    }
}
//# sourceMappingURL=check-redis.js.map