/** The gateway's public surface: the fetch handler and its configuration, for platform entries and tests. */
export { createGateway } from "./app";
export { azureHandler, type AzureHttpRequestLike, type AzureHttpResponseInit } from "./azure-functions";
export { checkOrigin, checkTarget, configFromEnv, GatewayConfigError, type GatewayConfig } from "./config";
export { formatJson, formatText, type AccessLogEntry } from "./access-log";
export type { Timer } from "./timeout";
