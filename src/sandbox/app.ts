/** The sandbox's HTTP application: routes of spec section 4, errors as JSON, never a crash. */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { authenticate } from "./auth";
import { ENTERPRISE, type SandboxApp, type SandboxEnv } from "./env";
import { ApiError, errorBody } from "./http-errors";
import { allowanceRoutes } from "./routes/allowances";
import { cardRoutes } from "./routes/cards";
import { expenseRoutes } from "./routes/expenses";
import { movementRoutes } from "./routes/movements";
import type { Store } from "./store";

/** Largest request body accepted (DESIGN.md). */
export const MAX_BODY_BYTES = 1024 * 1024;

export function createApp(store: Store): SandboxApp {
  const app = new Hono<SandboxEnv>({ strict: false });

  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json(errorBody(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`), 413),
    }),
  );
  app.use(`${ENTERPRISE}/*`, authenticate(store));

  cardRoutes(app, store);
  movementRoutes(app, store);
  allowanceRoutes(app, store);
  expenseRoutes(app, store);

  app.notFound((c) =>
    c.json(
      errorBody(404, `No endpoint for ${c.req.method} ${new URL(c.req.url).pathname} (see api-spec.md section 4).`),
      404,
    ),
  );
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(errorBody(err.status, err.message), err.status);
    if (err instanceof HTTPException) return c.json(errorBody(err.status, err.message), err.status);
    process.stderr.write(`sandbox: unexpected error on ${c.req.method} ${c.req.url}: ${(err as Error).stack}\n`);
    return c.json(errorBody(500, "Unexpected sandbox error; see the sandbox's log."), 500);
  });
  return app;
}
