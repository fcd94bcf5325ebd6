"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.inlineStyleSources = inlineStyleSources;
exports.swaggerUiPolicy = swaggerUiPolicy;
exports.isSwaggerUiPath = isSwaggerUiPath;
exports.installSwaggerUiHeaders = installSwaggerUiHeaders;
/**
 * The Swagger UI's own security headers (docs/security.md, "The API documentation page"). It
 * shares its host with the participant pages, and unlike them it runs script (Swagger UI, React),
 * so it gets a Content-Security-Policy of its own: script only from this origin, no inline script
 * and no eval; styles from this origin plus exactly the inline styles of the page's own template
 * (by hash); requests ("Try it out") only to this origin and PUBLIC_BASE_URL's; no framing, no
 * referrer.
 */
const node_crypto_1 = require("node:crypto");
const hashSource = (text) => `'sha256-${(0, node_crypto_1.createHash)('sha256').update(text, 'utf8').digest('base64')}'`;
/**
 * The inline styles of a page, as CSP hash sources: each `<style>` element's text, and each
 * `style` attribute's value. @nestjs/swagger's page template has both: two `<style>` elements
 * (its page style, and the rule hiding the spec URL box) and `style="position:absolute;width:0;
 * height:0"` on the SVG that holds the icons (without it that SVG takes 300 × 150 px at the top).
 * Swagger UI's own styling is swagger-ui.css, from this origin; React sets element styles through
 * the CSSOM, which CSP does not govern.
 */
function inlineStyleSources(html) {
    const elements = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]);
    const attributes = [...html.matchAll(/\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)].map((m) => m[1] ?? m[2]);
    const sources = [...new Set([...elements, ...attributes])].map(hashSource);
    // A hash allows a style attribute only with 'unsafe-hashes' (CSP 3); it allows nothing else.
    return attributes.length > 0 ? ["'unsafe-hashes'", ...sources] : sources;
}
/** The policy for the Swagger UI page whose HTML is `html` (null: an asset, not the page). */
function swaggerUiPolicy(html, publicBaseUrl) {
    const styles = html === null ? [] : inlineStyleSources(html);
    const publicOrigin = new URL(publicBaseUrl).origin;
    return [
        "default-src 'none'",
        "script-src 'self'",
        ['style-src', "'self'", ...styles].join(' '),
        // swagger-ui.css draws its icons as data: SVG images.
        "img-src 'self' data:",
        `connect-src 'self' ${publicOrigin}`,
        "form-action 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ].join('; ');
}
/** `/docs`, `/docs/` and everything under it (not `/docs-json`, `/docs-yaml`). */
function isSwaggerUiPath(url, prefix) {
    const path = url.split('?')[0];
    return path === prefix || path.startsWith(`${prefix}/`);
}
/**
 * Adds the headers to every answer under `prefix`. The page's policy is computed from the HTML
 * it sends (the same for every request: @nestjs/swagger renders its template once per path
 * variant), and kept.
 */
function installSwaggerUiHeaders(fastify, prefix, publicBaseUrl) {
    const policies = new Map();
    const assetPolicy = swaggerUiPolicy(null, publicBaseUrl);
    fastify.addHook('onSend', (request, reply, payload, done) => {
        if (!isSwaggerUiPath(request.url, prefix))
            return done(null, payload);
        let policy = assetPolicy;
        const type = String(reply.getHeader('content-type') ?? '');
        if (type.startsWith('text/html') && typeof payload === 'string') {
            policy = policies.get(payload) ?? swaggerUiPolicy(payload, publicBaseUrl);
            if (policies.size < 8)
                policies.set(payload, policy);
        }
        void reply.headers({
            'content-security-policy': policy,
            'x-frame-options': 'DENY',
            'referrer-policy': 'no-referrer',
            'x-content-type-options': 'nosniff',
        });
        done(null, payload);
    });
}
//# sourceMappingURL=swagger-ui-headers.js.map