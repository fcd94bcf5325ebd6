"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.httpArgumentsHost = httpArgumentsHost;
/**
 * The ArgumentsHost of a plain HTTP request, for calling an exception filter outside Nest's
 * pipeline (app.factory.ts: a URL Fastify's router cannot match). Nest's own class for this lives
 * in `@nestjs/core/internal`, which is not public API; this is the part a filter reads.
 */
function httpArgumentsHost(request, response) {
    const args = [request, response];
    const http = {
        getRequest: () => request,
        getResponse: () => response,
        getNext: () => undefined,
    };
    return {
        getArgs: () => args,
        getArgByIndex: (index) => args[index],
        getType: () => 'http',
        switchToHttp: () => http,
        switchToRpc: () => {
            throw new Error('Not an RPC context');
        },
        switchToWs: () => {
            throw new Error('Not a WebSocket context');
        },
    };
}
//# sourceMappingURL=http-arguments-host.js.map