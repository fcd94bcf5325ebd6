"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DependencyUnavailableError = void 0;
exports.describeLocation = describeLocation;
exports.describeReason = describeReason;
/**
 * Start-up connectivity failures, reported as one clear line: which dependency, where, why, and
 * how to start it. Never a stack trace.
 */
class DependencyUnavailableError extends Error {
    dependency;
    location;
    reason;
    constructor(dependency, location, reason) {
        super(`${dependency} is not reachable at ${location} (${reason}). ${DependencyUnavailableError.howToStart(dependency)}`);
        this.dependency = dependency;
        this.location = location;
        this.reason = reason;
        this.name = 'DependencyUnavailableError';
    }
    static howToStart(dependency) {
        return dependency === 'PostgreSQL'
            ? 'Start PostgreSQL (`docker compose up -d postgres`, or `pg_ctlcluster <version> main start` on Debian) or set DATABASE_URL.'
            : 'Start Redis (`docker compose up -d redis`, or `redis-server --daemonize yes`) or set REDIS_URL.';
    }
}
exports.DependencyUnavailableError = DependencyUnavailableError;
/** host:port of a URL, without credentials. */
function describeLocation(rawUrl) {
    try {
        const url = new URL(rawUrl);
        const path = url.pathname && url.pathname !== '/' ? url.pathname : '';
        return `${url.hostname}:${url.port || (url.protocol.startsWith('redis') ? '6379' : '5432')}${path}`;
    }
    catch {
        return 'the configured address';
    }
}
function describeReason(error) {
    const err = error;
    const nested = err.errors?.find((inner) => inner.code)?.code;
    return err.code ?? nested ?? err.message ?? String(error);
}
//# sourceMappingURL=dependency-errors.js.map