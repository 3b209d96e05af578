/** The sandbox's HTTP application: routes of spec section 4, errors as JSON, never a crash. */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { authenticate } from "./auth";
import { ENTERPRISE, type SandboxApp, type SandboxEnv } from "./env";
import { ApiError, errorBody } from "./http-errors";
import { allowanceRoutes } from "./routes/allowances";
import { cardRoutes } from "./routes/cards";
import { expenseRoutes } from "./routes/expenses";
import { movementRoutes } from "./routes/movements";
import type { Store } from "./store";

export function createApp(store: Store): SandboxApp {
  const app = new Hono<SandboxEnv>({ strict: false });

  // Body size, methods, Host and the request target are checked before hono, in http-guard.ts.
  // Authentication comes before any lookup: an unknown enterprise or path under it is a 403, not a 404.
  app.use(ENTERPRISE, authenticate(store));
  app.use(`${ENTERPRISE}/*`, authenticate(store));

  cardRoutes(app, store);
  movementRoutes(app, store);
  allowanceRoutes(app, store);
  expenseRoutes(app, store);

  app.notFound((c) =>
    c.json(
      errorBody(404, `No endpoint for ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)} (see api-spec.md section 4).`),
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
