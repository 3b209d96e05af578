// The manifest of a production build: every development URL moves to ADDIN_URL, and the gateway's origin
// (GATEWAY_URL, when the service is reached through src/gateway) joins the AppDomains, the list of the
// domains the add-in's pages talk to (https://learn.microsoft.com/javascript/api/manifest/appdomains).
const { URL } = require("node:url");

const DEV_ORIGIN = "https://localhost:3000";

/** `content` (manifest.xml) for a build hosted at `addinUrl`, calling the service through `gatewayUrl` if given. */
function productionManifest(content, addinUrl, gatewayUrl) {
  const base = addinUrl.replace(/\/?$/, "/");
  // An AppDomain is an origin (no path), the other URLs the full address under ADDIN_URL.
  let out = content.split(`<AppDomain>${DEV_ORIGIN}</AppDomain>`).join(`<AppDomain>${new URL(base).origin}</AppDomain>`);
  out = out.split(`${DEV_ORIGIN}/`).join(base).split(DEV_ORIGIN).join(base.replace(/\/$/, ""));
  if (gatewayUrl) {
    const gateway = new URL(gatewayUrl);
    if (gateway.protocol !== "https:") throw new Error(`GATEWAY_URL must be https (Excel calls it from an https page): ${gatewayUrl}`);
    if (!out.includes(`<AppDomain>${gateway.origin}</AppDomain>`)) {
      out = out.replace("</AppDomains>", `  <AppDomain>${gateway.origin}</AppDomain>\n  </AppDomains>`);
    }
  }
  return out;
}

module.exports = { productionManifest };
