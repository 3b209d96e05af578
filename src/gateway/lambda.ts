/**
 * AWS Lambda entry (a Function URL or API Gateway HTTP API in front; docs/deploy.md): hono's adapter turns
 * the Lambda event into a Request and the Response back. Configuration from the function's environment:
 * GATEWAY_TARGET, GATEWAY_ALLOW_ORIGINS and the optional ones of configFromEnv. The access log goes to CloudWatch
 * through console.log.
 */
import { handle } from "hono/aws-lambda";
import { createGateway } from "./app";
import { configFromEnv, ENV_VARIABLE_OF, GatewayConfigError } from "./config";

function gateway(): ReturnType<typeof createGateway> {
  try {
    return createGateway(configFromEnv(process.env));
  } catch (error) {
    // Fails the function's start, naming the variable to fix (the init error is what the console shows).
    if (error instanceof GatewayConfigError) throw new GatewayConfigError(error.field, `${ENV_VARIABLE_OF[error.field] ?? error.field}: ${error.message}`);
    throw error;
  }
}

export const handler = handle(gateway());
