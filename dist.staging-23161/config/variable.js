"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Combined = exports.Variable = void 0;
exports.variable = variable;
exports.optional = optional;
exports.combine = combine;
exports.variablesIn = variablesIn;
exports.resolve = resolve;
/** A declared variable whose typed value is `T`. */
class Variable {
    declaration;
    constructor(declaration) {
        this.declaration = declaration;
    }
}
exports.Variable = Variable;
/** A setting computed from several variables. */
class Combined {
    inputs;
    combine;
    constructor(inputs, combine) {
        this.inputs = inputs;
        this.combine = combine;
    }
}
exports.Combined = Combined;
/** A variable that always has a value: its default, or (a required secret) a generated one. */
function variable(declaration) {
    return new Variable(declaration);
}
/** A variable whose value is `null` when unset. */
function optional(declaration) {
    return new Variable(declaration);
}
function combine(inputs, fn) {
    return new Combined(inputs, fn);
}
/** Every variable of a tree once, in the order the tree names them. */
function variablesIn(tree) {
    const found = [];
    const visit = (node) => {
        if (node instanceof Variable) {
            if (!found.includes(node.declaration))
                found.push(node.declaration);
        }
        else if (node instanceof Combined) {
            Object.values(node.inputs).forEach(visit);
        }
        else if (typeof node === 'object' && node !== null) {
            Object.values(node).forEach(visit);
        }
    };
    visit(tree);
    return found;
}
/** The settings of a tree, given the parsed value of each variable by name (absent: null). */
function resolve(tree, values) {
    const valueOf = (node) => {
        if (node instanceof Variable)
            return values[node.declaration.name] ?? null;
        if (node instanceof Combined) {
            const inputs = Object.entries(node.inputs).map(([key, input]) => [
                key,
                valueOf(input),
            ]);
            return node.combine(Object.fromEntries(inputs));
        }
        if (typeof node === 'object' && node !== null) {
            return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, valueOf(child)]));
        }
        return node;
    };
    return valueOf(tree);
}
//# sourceMappingURL=variable.js.map