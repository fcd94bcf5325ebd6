"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.namedSchema = namedSchema;
exports.namedSchemas = namedSchemas;
/**
 * Response shapes that are not classes (a metric's answer is a map: `{"all": …}` or one key per
 * period), given a name so the OpenAPI document lists them under `components.schemas` like the
 * DTO classes, and a generated client gets a named type for each (`components["schemas"][name]`).
 * Registered when the module declaring them is loaded; buildOpenApiDocument adds every one.
 */
const registry = new Map();
/** Registers `schema` as `#/components/schemas/<name>` and returns a reference to it. */
function namedSchema(name, schema) {
    const known = registry.get(name);
    if (known && known !== schema)
        throw new Error(`OpenAPI schema ${name} is declared twice`);
    registry.set(name, schema);
    return { $ref: `#/components/schemas/${name}` };
}
/** Every registered schema, by name (sorted, so the document is the same from run to run). */
function namedSchemas() {
    return Object.fromEntries([...registry].sort(([a], [b]) => a.localeCompare(b)));
}
//# sourceMappingURL=named-schemas.js.map