/** Test double #2 of DESIGN.md: the real sandbox on port 0, and a thin raw-HTTP caller for its tests. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../src/sandbox/server";

export const ANCHOR = "2026-11-01";

interface Called {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface SandboxFixture {
  sandbox: RunningSandbox;
  enterprise: { id: string; api_key: string; subsidiaries: string[]; cards: { id: string; billing_periods: string[] }[] };
  other: { id: string; api_key: string; subsidiaries: string[] };
  /** `/public/v1/enterprises/{first enterprise}` */
  prefix: string;
  call(method: string, path: string, options?: { key?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<Called>;
}

export async function withSandbox(options: SandboxOptions = {}): Promise<SandboxFixture> {
  const sandbox = await startSandbox({ anchor: ANCHOR, ...options });
  const manifest = sandbox.manifest();
  const [enterprise, other] = manifest.enterprises;
  const call: SandboxFixture["call"] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? enterprise.api_key : opts.key;
    if (key !== null && headers.Authorization === undefined) headers.Authorization = `Api-Key ${key}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      headers["Content-Type"] ??= "application/json";
    }
    const url = path.startsWith("http") ? path : `${sandbox.baseUrl}${path}`;
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  return { sandbox, enterprise, other, prefix: `/public/v1/enterprises/${enterprise.id}`, call };
}
