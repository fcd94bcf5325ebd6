"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.opsTargetsOf = opsTargetsOf;
const measurements_1 = require("../common/measurements/measurements");
const readiness_1 = require("./readiness");
/** What the operations port serves from an application that imports OperationsModule. */
function opsTargetsOf(app) {
    const readiness = app.get(readiness_1.Readiness);
    return { registry: app.get(measurements_1.Measurements).registry, readiness: () => readiness.check() };
}
//# sourceMappingURL=ops-targets.js.map