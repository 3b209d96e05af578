/**
 * The add-in's side of team mode (docs/team-mode.md): the gateway's /team/v1 API with the signed-in person's
 * token, and a SpendClient whose requests carry that token (never a key) and, on a PATCH, the approved batch
 * it belongs to. The token is asked for at each request from its source, which caches it in memory only.
 */
import { SpendClient, type ClientConfig } from "./client";
import { SpendSyncError } from "./errors";
import { checkBaseUrl } from "./base-url";
import { fetchTransport, type Transport } from "./transport";

/** The gateway refused or could not answer a team request; the sentence is the gateway's. */
export class TeamGatewayError extends SpendSyncError {
  override readonly name = "TeamGatewayError";
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

/** What the add-in asks the identity provider for (GET /team/v1/sign-in). */
export interface SignInConfig {
  tenants: string[];
  audience: string;
  enterprise_id: string;
  client_id?: string;
  authority?: string;
  scopes?: string[];
}

export interface TeamPerson { id: string; name: string; username: string; tenant: string; roles: string[] }

export interface BatchRowOut { request: number; id: string; label: string; from: string; to: string; amount: string; currency: string }
export interface BatchTotal { state: string; currency: string; count: number; amount: string }

/** A batch as the gateway answers it; `rows` and `requests` only when it is asked for by id. */
export interface TeamBatch {
  id: string;
  preparer: { id: string; name: string };
  preparedAt: string;
  validUntil: string;
  source: string;
  hash: string;
  state: "pending" | "approved" | "rejected" | "expired";
  decision: null | { by: { id: string; name: string }; at: string; comment: string };
  rows?: BatchRowOut[];
  totals: BatchTotal[];
  requests?: { method: string; path: string; body: string; state: string; answer: null | { status: number; body: string } }[];
}

/** What Preview freezes: the exact PATCHes, one row per PATCH, and the totals. */
export interface BatchSubmission {
  source: string;
  requests: { method: "PATCH"; path: string; body: string }[];
  rows: BatchRowOut[];
  totals: BatchTotal[];
}

/** Gives the signed-in person's access token (Office SSO, MSAL, or the workbench's identity provider). */
export type TokenSource = () => Promise<string>;

export class TeamGateway {
  readonly baseUrl: string;

  constructor(baseUrl: string, private readonly token: TokenSource) {
    this.baseUrl = checkBaseUrl(baseUrl).toString().replace(/\/+$/, "");
  }

  /** What to sign in with: public, asked before anyone is signed in. */
  static async signInConfig(baseUrl: string): Promise<SignInConfig> {
    const url = `${checkBaseUrl(baseUrl).toString().replace(/\/+$/, "")}/team/v1/sign-in`;
    return answerOf<SignInConfig>(await reach(url, { method: "GET", headers: { Accept: "application/json" } }));
  }

  me(): Promise<TeamPerson> {
    return this.call("GET", "/me");
  }

  submit(batch: BatchSubmission): Promise<TeamBatch> {
    return this.call("POST", "/batches", batch);
  }

  async pending(): Promise<TeamBatch[]> {
    return (await this.call<{ results: TeamBatch[] }>("GET", "/batches?state=pending")).results;
  }

  batch(id: string): Promise<TeamBatch> {
    return this.call("GET", `/batches/${encodeURIComponent(id)}`);
  }

  /** Approves what the approver saw: `hash` is the batch's as shown (409 when it is no longer). */
  approve(id: string, hash: string, comment: string): Promise<TeamBatch> {
    return this.call("POST", `/batches/${encodeURIComponent(id)}/approve`, { hash, comment });
  }

  reject(id: string, comment: string): Promise<TeamBatch> {
    return this.call("POST", `/batches/${encodeURIComponent(id)}/reject`, { comment });
  }

  /**
   * A client of the service through the gateway: Bearer token in place of a key; a PATCH names `batch()`'s id.
   * `apiKey` is a random stand-in the client requires and this transport drops: no key exists on this desk.
   */
  client(enterpriseId: string, batch: () => string | null, defaults: Partial<ClientConfig> = {}): SpendClient {
    const base = defaults.transport ?? fetchTransport;
    const transport: Transport = async (request) => {
      const headers: Record<string, string> = { ...request.headers, Authorization: `Bearer ${await this.token()}` };
      const id = batch();
      if (request.method === "PATCH" && id) headers["X-Spend-Batch"] = id;
      return base({ ...request, headers });
    };
    return new SpendClient({ ...defaults, baseUrl: this.baseUrl, enterpriseId, apiKey: `team-${crypto.randomUUID()}`, transport });
  }

  private async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${await this.token()}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return answerOf<T>(await reach(`${this.baseUrl}/team/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  }
}

async function reach(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual" });
  } catch (error) {
    throw new TeamGatewayError(`Could not reach the gateway at ${new URL(url).origin}: ${(error as Error).message}.`, 0);
  }
}

/** The answer's JSON, or the gateway's sentence as a TeamGatewayError. */
async function answerOf<T>(response: Response): Promise<T> {
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a proxy's HTML page: said below by status
  }
  if (response.ok && parsed !== null) return parsed as T;
  const sentence = (parsed as { error?: unknown } | null)?.error;
  throw new TeamGatewayError(typeof sentence === "string" ? sentence : `The gateway answered ${response.status}.`, response.status);
}
