/**
 * The machinery behind config.ts: how one declaration per environment variable becomes the
 * validation, the typed configuration and the documentation (docs/configuration.md).
 *
 * - `variable({...})` declares a variable that always has a value (a default, or a secret
 *   generated outside production); `optional({...})` one whose value is `null` when unset.
 * - `combine({ a, b }, fn)` is a setting computed from several variables (a key list and its
 *   single key, a URL defaulting from PORT).
 * - A tree of these, shaped like the typed configuration, is the declaration of the whole
 *   configuration: `Settings<typeof tree>` is its type, `resolve(tree, …)` its value and
 *   `variablesIn(tree)` the variables in order.
 */
import type { z } from 'zod';

/** What production demands of a variable (checked after every value is valid). */
export interface ProductionRule<T> {
  /** Production refuses to start while it is unset: "NAME must be set in production…". */
  required?: boolean;
  /** …unless this other variable is set (it replaces this one). */
  unlessSet?: string;
  /** Added to "NAME must be set in production" (e.g. what to set instead). */
  hint?: string;
  /** A value production refuses, with the reason ("must not be true in production"). */
  refuse?: (value: T) => string | undefined;
}

export interface Declaration<T> {
  /** The environment variable. */
  name: string;
  /** Where docs/configuration.md and .env.example list it (a key of GROUPS in config.ts). */
  group: string;
  /** What it does, for operators: .env.example and docs/configuration.md. */
  description: string;
  /** Validates the variable's text and turns it into the typed value. */
  schema: z.ZodType<T>;
  /** Used when unset, written as the variable would be (`'3000'`, `'true'`, `'1h'`). */
  default?: string;
  /** Used instead of `default` when NODE_ENV=development. */
  developmentDefault?: string;
  /** For .env.example: shown commented out (`# NAME=example`) instead of `NAME=default`. */
  example?: string;
  /** For the docs, when unset and without a default: what applies instead. */
  whenUnset?: string;
  /** Never repeated in an error message (they go to logs); the service never logs its config. */
  secret?: boolean;
  /** Not a secret of ours, but may hold one (credentials in a URL): never repeated either. */
  redacted?: boolean;
  /** A fresh random value in the variable's form: what the local secrets file and a process
   * outside production use when it is unset (see local-secrets.ts). */
  generate?: () => string;
  production?: ProductionRule<T>;
}

/** A declared variable whose typed value is `T`. */
export class Variable<T> {
  declare readonly valueType: T;
  constructor(readonly declaration: Declaration<unknown>) {}
}

/** A setting computed from several variables. */
export class Combined<T> {
  declare readonly valueType: T;
  constructor(
    readonly inputs: Record<string, Variable<unknown>>,
    readonly combine: (values: Record<string, unknown>) => T,
  ) {}
}

/** A variable that always has a value: its default, or (a required secret) a generated one. */
export function variable<T>(
  declaration: Declaration<T> & ({ default: string } | { generate: () => string }),
): Variable<T> {
  return new Variable<T>(declaration as Declaration<unknown>);
}

/** A variable whose value is `null` when unset. */
export function optional<T>(declaration: Declaration<T>): Variable<T | null> {
  return new Variable<T | null>(declaration as Declaration<unknown>);
}

type ValueOf<V> = V extends Variable<infer T> ? T : never;

export function combine<I extends Record<string, Variable<unknown>>, T>(
  inputs: I,
  fn: (values: { [K in keyof I]: ValueOf<I[K]> }) => T,
): Combined<T> {
  return new Combined<T>(inputs, fn as (values: Record<string, unknown>) => T);
}

/** The typed settings a declaration tree describes (doc comments on the tree carry over). */
export type Settings<Tree> =
  Tree extends Variable<infer T>
    ? T
    : Tree extends Combined<infer T>
      ? T
      : Tree extends Record<string, unknown>
        ? { [K in keyof Tree]: Settings<Tree[K]> }
        : Tree;

/** Every variable of a tree once, in the order the tree names them. */
export function variablesIn(tree: object): Declaration<unknown>[] {
  const found: Declaration<unknown>[] = [];
  const visit = (node: unknown): void => {
    if (node instanceof Variable) {
      if (!found.includes(node.declaration)) found.push(node.declaration);
    } else if (node instanceof Combined) {
      Object.values(node.inputs).forEach(visit);
    } else if (typeof node === 'object' && node !== null) {
      Object.values(node).forEach(visit);
    }
  };
  visit(tree);
  return found;
}

/** The settings of a tree, given the parsed value of each variable by name (absent: null). */
export function resolve<Tree extends object>(
  tree: Tree,
  values: Record<string, unknown>,
): Settings<Tree> {
  const valueOf = (node: unknown): unknown => {
    if (node instanceof Variable) return values[node.declaration.name] ?? null;
    if (node instanceof Combined) {
      const inputs = Object.entries(node.inputs).map(([key, input]): [string, unknown] => [
        key,
        valueOf(input),
      ]);
      return (node as Combined<unknown>).combine(Object.fromEntries(inputs));
    }
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, valueOf(child)]));
    }
    return node;
  };
  return valueOf(tree) as Settings<Tree>;
}
