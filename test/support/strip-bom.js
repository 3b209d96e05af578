// CommonJS stand-in for the ESM-only `strip-bom`, which office-addin-mock reaches through
// office-addin-manifest; jest (on Node 20) cannot require an ES module.
module.exports = function stripBom(text) {
  return typeof text === "string" && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
};
module.exports.default = module.exports;
