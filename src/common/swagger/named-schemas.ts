import type { SchemaObject } from '@nestjs/swagger';

/**
 * Response shapes that are not classes (a metric's answer is a map: `{"all": …}` or one key per
 * period), given a name so the OpenAPI document lists them under `components.schemas` like the
 * DTO classes, and a generated client gets a named type for each (`components["schemas"][name]`).
 * Registered when the module declaring them is loaded; buildOpenApiDocument adds every one.
 */
const registry = new Map<string, SchemaObject>();

/** Registers `schema` as `#/components/schemas/<name>` and returns a reference to it. */
export function namedSchema(name: string, schema: SchemaObject): { $ref: string } {
  const known = registry.get(name);
  if (known && known !== schema) throw new Error(`OpenAPI schema ${name} is declared twice`);
  registry.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** Every registered schema, by name (sorted, so the document is the same from run to run). */
export function namedSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries([...registry].sort(([a], [b]) => a.localeCompare(b)));
}
