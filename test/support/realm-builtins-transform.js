/**
 * ts-jest, with the realm's built-in namespaces and constructors bound once per module (a `const` of the same
 * object). Why: jest runs each test file in a node:vm context, whose global object answers every lookup of a
 * global name through a C++ interceptor; in a loop, `Math.imul` then costs about 300 ns a call instead of under
 * 2 (a 28-million-call FNV loop: 6.3 s against 47 ms once Math is a module constant; the row fingerprints of a
 * 51,000-row load spent 8 s there). A module-level constant is found in the module's own scope and never
 * reaches the global object. The objects are the realm's own (globalThis's), so nothing but the lookup changes:
 * a spy on Math.random or JSON.parse still replaces the member everyone sees. Globals tests replace outright
 * (Date and the timers, which jest's fake timers swap) are left as they are looked up.
 */
const tsJest = require("ts-jest").default;

const BUILTINS = [
  "Math", "JSON", "Object", "Array", "Number", "String", "Boolean", "Symbol", "Map", "Set", "WeakMap", "WeakSet",
  "Reflect", "Error", "TypeError", "RangeError", "RegExp", "Promise", "Uint8Array", "ArrayBuffer", "Intl",
];
const BINDING = `const { ${BUILTINS.join(", ")} } = globalThis;`;
// The binding goes after the directive prologue ("use strict" must stay first to keep the module strict) and on
// the same line, so that every later line keeps its number for stack traces and source maps.
const PROLOGUE = /^(\s*(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*(?:(["'])use strict\2;?)?)/;

/** The module's code with the builtins bound at its top. */
function bindBuiltins(code) {
  const prologue = PROLOGUE.exec(code)[1];
  return prologue + BINDING + code.slice(prologue.length);
}

module.exports = {
  /** The declaration that binds the builtins (office-js-environment.js puts Office.js's script in its block). */
  BINDING,
  createTransformer(options) {
    const inner = tsJest.createTransformer(options);
    return {
      canInstrument: inner.canInstrument,
      getCacheKey: (source, path, transformOptions) => `${inner.getCacheKey(source, path, transformOptions)}:realm-builtins-1`,
      process(source, path, transformOptions) {
        const out = inner.process(source, path, transformOptions);
        return { ...out, code: bindBuiltins(out.code) };
      },
    };
  },
};
