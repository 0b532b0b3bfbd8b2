import { FUNCTION_DOCS } from '../function-docs.ts';
import { formulajsFunction, wrapFormulajs } from './formulajs-adapter.ts';
import { LOGICAL_FUNCTIONS } from './logical.ts';
import { NATIVE_FUNCTIONS } from './natives.ts';
import type { FunctionImpl, FunctionSpec } from './types.ts';

// The allow-list: exactly the documented functions (function-docs.ts), each implemented natively
// or by formula.js. A Map, so no name can reach an inherited property.

const DATE_AWARE = new Set(FUNCTION_DOCS.filter((d) => d.category === 'date').map((d) => d.name));

function implementationOf(name: string): FunctionImpl {
  const own = Object.hasOwn(LOGICAL_FUNCTIONS, name) ? LOGICAL_FUNCTIONS[name] : Object.hasOwn(NATIVE_FUNCTIONS, name) ? NATIVE_FUNCTIONS[name] : undefined;
  if (own) return own;
  const fn = formulajsFunction(name);
  if (!fn) throw new Error(`Formula function ${name} is documented but not implemented`);
  return wrapFormulajs(fn, DATE_AWARE.has(name));
}

export const FUNCTION_TABLE: ReadonlyMap<string, FunctionSpec> = new Map(
  FUNCTION_DOCS.map((doc) => [
    doc.name,
    Object.freeze({ propagateErrors: true, ...implementationOf(doc.name), name: doc.name, minArgs: doc.minArgs, maxArgs: doc.maxArgs }),
  ]),
);
