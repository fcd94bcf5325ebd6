"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var DatabaseModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.DatabaseModule = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const database_1 = require("./database");
const typeorm_options_1 = require("./typeorm-options");
/** The `pg` pool inside TypeORM's PostgreSQL driver. */
const poolOf = (dataSource) => dataSource.driver.master;
/**
 * PostgreSQL for every process: TypeORM's DataSource (entities, pool) and the `Database` that
 * repositories inject. Each process entry module imports `DatabaseModule.forRoot(config)`.
 */
let DatabaseModule = DatabaseModule_1 = class DatabaseModule {
    static forRoot(config, overrides = {}) {
        return {
            module: DatabaseModule_1,
            imports: [typeorm_1.TypeOrmModule.forRoot((0, typeorm_options_1.buildDataSourceOptions)(config, overrides))],
            providers: [
                {
                    provide: database_1.Database,
                    inject: [typeorm_2.DataSource],
                    useFactory: (dataSource) => new database_1.Database(poolOf(dataSource)),
                },
            ],
            exports: [database_1.Database],
        };
    }
};
exports.DatabaseModule = DatabaseModule;
exports.DatabaseModule = DatabaseModule = DatabaseModule_1 = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({})
], DatabaseModule);
//# sourceMappingURL=database.module.js.map