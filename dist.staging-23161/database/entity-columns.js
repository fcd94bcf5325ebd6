"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EntityColumns = void 0;
exports.columnsOf = columnsOf;
exports.ForeignKey = ForeignKey;
/**
 * Helpers that keep each module's TypeORM entities the one TypeScript description of its tables.
 * Repositories speak plain SQL (see database.ts), but they name columns and type rows through the
 * entity: `columnsOf(GroupEntity, ['groupId', 'name'])` renders `group_id AS "groupId", name AS
 * "name"`, and its rows are `RowOf<…>` = `Pick<GroupEntity, 'groupId' | 'name'>`. Adding or
 * renaming a column is then one entity change plus its migration.
 */
const typeorm_1 = require("typeorm");
/** A fixed selection of an entity's columns, each answered under its property name. */
class EntityColumns {
    properties;
    names;
    lists = new Map();
    constructor(entity, properties) {
        this.properties = properties;
        const columns = (0, typeorm_1.getMetadataArgsStorage)().columns.filter((column) => column.target === entity);
        const names = new Map();
        for (const property of properties) {
            const column = columns.find((candidate) => candidate.propertyName === property);
            if (!column)
                throw new Error(`${entity.name}.${property} is not a column`);
            names.set(property, column.options.name ?? property);
        }
        this.names = names;
    }
    /** The column that stores `property`, qualified by `alias` when given. */
    column(property, alias) {
        const name = this.names.get(property);
        return alias ? `${alias}.${name}` : name;
    }
    /** `alias.column AS "property", …` for every property of the selection (built once per alias). */
    select(alias = '') {
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
exports.EntityColumns = EntityColumns;
function columnsOf(entity, properties) {
    return new EntityColumns(entity, properties);
}
const snakeCase = (property) => property.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/**
 * A foreign key in one decorator, on the property holding the referenced id: the column (named in
 * snake case: `groupId` → `group_id`), and a many-to-one relation (ON DELETE CASCADE, unless
 * `onDelete` says otherwise) with the constraint's explicit name. `primaryKey` names the table's
 * primary key constraint when the column is part of it.
 */
function ForeignKey(target, type, constraint, options = {}) {
    return (prototype, property) => {
        const name = snakeCase(String(property));
        const relation = String(property).replace(/Id$/, '');
        if (options.primaryKey) {
            (0, typeorm_1.PrimaryColumn)({ name, type, primaryKeyConstraintName: options.primaryKey })(prototype, property);
        }
        else {
            (0, typeorm_1.Column)({ name, type, nullable: options.nullable ?? false })(prototype, property);
        }
        (0, typeorm_1.ManyToOne)(target, { onDelete: 'CASCADE' })(prototype, relation);
        (0, typeorm_1.JoinColumn)({ name, foreignKeyConstraintName: constraint })(prototype, relation);
    };
}
//# sourceMappingURL=entity-columns.js.map