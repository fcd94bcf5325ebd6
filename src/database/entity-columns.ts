/**
 * Helpers that keep each module's TypeORM entities the one TypeScript description of its tables.
 * Repositories speak plain SQL (see database.ts), but they name columns and type rows through the
 * entity: `columnsOf(GroupEntity, ['groupId', 'name'])` renders `group_id AS "groupId", name AS
 * "name"`, and its rows are `RowOf<…>` = `Pick<GroupEntity, 'groupId' | 'name'>`. Adding or
 * renaming a column is then one entity change plus its migration.
 */
import {
  Column,
  ColumnType,
  getMetadataArgsStorage,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own target type
type EntityClass<E> = Function & { prototype: E };

/** A fixed selection of an entity's columns, each answered under its property name. */
export class EntityColumns<E, K extends keyof E & string> {
  private readonly names: ReadonlyMap<K, string>;
  private readonly lists = new Map<string, string>();

  constructor(
    entity: EntityClass<E>,
    readonly properties: readonly K[],
  ) {
    const columns = getMetadataArgsStorage().columns.filter((column) => column.target === entity);
    const names = new Map<K, string>();
    for (const property of properties) {
      const column = columns.find((candidate) => candidate.propertyName === property);
      if (!column) throw new Error(`${entity.name}.${property} is not a column`);
      names.set(property, column.options.name ?? property);
    }
    this.names = names;
  }

  /** The column that stores `property`, qualified by `alias` when given. */
  column(property: K, alias?: string): string {
    const name = this.names.get(property)!;
    return alias ? `${alias}.${name}` : name;
  }

  /** `alias.column AS "property", …` for every property of the selection (built once per alias). */
  select(alias = ''): string {
    let list = this.lists.get(alias);
    if (list === undefined) {
      list = this.properties
        .map((property) => `${this.column(property, alias || undefined)} AS "${property}"`)
        .join(', ');
      this.lists.set(alias, list);
    }
    return list;
  }
}

export function columnsOf<E, K extends keyof E & string>(
  entity: EntityClass<E>,
  properties: readonly K[],
): EntityColumns<E, K> {
  return new EntityColumns(entity, properties);
}

/** The row a selection answers: the entity's own properties and types. */
export type RowOf<C> = C extends EntityColumns<infer E, infer K> ? Pick<E, K> : never;

const snakeCase = (property: string): string =>
  property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A foreign key in one decorator, on the property holding the referenced id: the column (named in
 * snake case: `groupId` → `group_id`), and a many-to-one relation (ON DELETE CASCADE, unless
 * `onDelete` says otherwise) with the constraint's explicit name. `primaryKey` names the table's
 * primary key constraint when the column is part of it.
 */
export function ForeignKey(
  target: () => EntityClass<unknown>,
  type: ColumnType,
  constraint: string,
  options: { primaryKey?: string; nullable?: boolean } = {},
): PropertyDecorator {
  return (prototype, property) => {
    const name = snakeCase(String(property));
    const relation = String(property).replace(/Id$/, '');
    if (options.primaryKey) {
      PrimaryColumn({ name, type, primaryKeyConstraintName: options.primaryKey })(
        prototype,
        property,
      );
    } else {
      Column({ name, type, nullable: options.nullable ?? false })(prototype, property);
    }
    ManyToOne(target, { onDelete: 'CASCADE' })(prototype, relation);
    JoinColumn({ name, foreignKeyConstraintName: constraint })(prototype, relation);
  };
}
