/**
 * jest's test environment: Node's, with Microsoft's Office.js client library run in each test file's realm as
 * a browser runs its script tag (`window` is the global object, which has a `navigator`). Only a script run in
 * the realm itself gives the library its globals; test/support/office-js.ts then adds our one shim there.
 * It runs in the constructor: jest runs the setup files before an environment's setup().
 */
const { readFileSync } = require("node:fs");
const vm = require("node:vm");
const { TestEnvironment } = require("jest-environment-node");
const { BINDING } = require("./realm-builtins-transform");

/**
 * node:vm's Script, of a text put in a block that binds the realm's builtins: each of the library's lookups of
 * Object, Array or JSON (several a cell in every request it builds) is then a block constant, not a global found
 * through the vm context's interceptor (realm-builtins-transform.js says why that is slow). Its declarations (var,
 * and its one function) are still the realm's globals; the binding and the braces keep every line where it was.
 */
class Script extends vm.Script {
  constructor(text, options) {
    super(`{${BINDING}${text}\n}`, options);
  }
}

const file = require.resolve("@microsoft/office-js/dist/excel-web-16.00.js");
let script;

class OfficeJsEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    script ??= new Script(readFileSync(file, "utf8"), { filename: file });
    this.global.window = this.global;
    this.global.navigator ??= { userAgent: "node" };
    script.runInContext(this.getVmContext());
  }
}

module.exports = OfficeJsEnvironment;
