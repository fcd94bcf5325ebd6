"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.statusForClientError = statusForClientError;
exports.answerClientError = answerClientError;
/**
 * Requests Node's HTTP parser refuses before any route sees them (docs/api.md, "Errors"): an
 * unknown method token (`FOO /groups`), a malformed request line or header, headers too large, a
 * request too slow. Fastify would answer them in a shape of its own
 * (`{"error":"Bad Request","message":"Client Error","statusCode":400}`); here they get the one
 * error shape. A method no route has is 404 `Not found`, as for a method HTTP defines (the
 * contract's answer for a method a path does not have); the rest keep Fastify's statuses (408,
 * 431, else 400) with the catalogue's message for them.
 */
const node_http_1 = require("node:http");
const common_errors_1 = require("../errors/common.errors");
function statusForClientError(code) {
    switch (code) {
        case 'HPE_INVALID_METHOD':
            return 404;
        case 'ERR_HTTP_REQUEST_TIMEOUT':
            return 408;
        case 'HPE_HEADER_OVERFLOW':
            return 431;
        default:
            return 400;
    }
}
/** Fastify's `clientErrorHandler`: writes the answer on the socket and closes it. */
function answerClientError(error, socket) {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed)
        return;
    const status = statusForClientError(error.code);
    const body = JSON.stringify({ error: (0, common_errors_1.messageForStatus)(status) });
    if (socket.writable) {
        socket.write(`HTTP/1.1 ${status} ${node_http_1.STATUS_CODES[status]}\r\n` +
            'Content-Type: application/json; charset=utf-8\r\n' +
            `Content-Length: ${Buffer.byteLength(body)}\r\n` +
            'Connection: close\r\n\r\n' +
            body);
    }
    socket.destroy();
}
//# sourceMappingURL=client-errors.js.map