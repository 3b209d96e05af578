// CommonJS stand-in for the ESM-only `uuid` 14 that office-addin-manifest requires (it uses v4 only).
const { randomUUID } = require("node:crypto");
module.exports = { v4: () => randomUUID() };
