/**
 * Signing a person in for team mode: Office single sign-on (Office.auth.getAccessToken, IdentityAPI 1.3)
 * where this Excel has it, else a Microsoft sign-in window through MSAL configured from the gateway's
 * GET /team/v1/sign-in. The token is kept in memory only (never in storage) and asked for again shortly
 * before it expires.
 */
import type { AccountInfo } from "@azure/msal-browser";
import { TeamGatewayError, type SignInConfig, type TokenSource } from "../api";

/** Office's SSO errors after which Microsoft advises the MSAL fallback (not supported here, no token for this account). */
const FALL_BACK = new Set([13003, 13007, 13012]);
/** Office's SSO errors the person can act on, in words. */
const SSO_SENTENCES: Record<number, string> = {
  13001: "Sign in to Office (top right of Excel) with your work account, then sign in here again.",
  13002: "Sign-in was cancelled: sign in again, and accept when Office asks for consent.",
  13006: "Office could not sign you in: close and reopen Excel, then sign in again.",
};

/** A token whose `exp` (seconds) is read from its payload, to ask for a new one a minute before. */
function expiryOf(token: string): number {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: unknown };
    return typeof payload.exp === "number" ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/** Caches `get`'s token in memory until a minute before it expires. */
function cached(get: () => Promise<string>): TokenSource {
  let token = "";
  let until = 0;
  return async () => {
    if (token && Date.now() < until) return token;
    token = await get();
    until = expiryOf(token) - 60_000;
    return token;
  };
}

/** True when this Excel offers Office's single sign-on. */
function hasOfficeSso(): boolean {
  return typeof Office !== "undefined" && typeof Office.auth?.getAccessToken === "function" && Office.context?.requirements?.isSetSupported("IdentityAPI", "1.3") === true;
}

/** Office's SSO error code, when it is one. */
const ssoCode = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
};

/** The MSAL sign-in window's token source, configured by the gateway (client id, authority, scopes). */
async function msalSource(config: SignInConfig): Promise<TokenSource> {
  if (!config.client_id || !config.authority) {
    throw new TeamGatewayError("This Excel has no Office single sign-on, and the gateway names no app registration for a sign-in window (TEAM_CLIENT_ID): ask your administrator.", 0);
  }
  const scopes = config.scopes ?? [`${config.audience}/access_as_user`];
  // Loaded only here, when this Excel has no single sign-on: its own file, not part of every taskpane's start.
  const { BrowserCacheLocation, createStandardPublicClientApplication } = await import(/* webpackChunkName: "msal-sign-in" */ "@azure/msal-browser");
  // Memory only: a token kept in the webview's storage would outlive the person at this desk.
  const msal = await createStandardPublicClientApplication({
    auth: {
      clientId: config.client_id, authority: config.authority,
      // The window comes back to a page of the add-in's own that only hands the answer over (sign-in-done.ts).
      redirectUri: new URL("sign-in-done.html", location.href).href,
      // The authority the gateway names is trusted as it is: no instance discovery at login.microsoftonline.com.
      knownAuthorities: [new URL(config.authority).host],
    },
    cache: { cacheLocation: BrowserCacheLocation.MemoryStorage },
  });
  let account: AccountInfo | null = null;
  return cached(async () => {
    if (account) {
      const silent = await msal.acquireTokenSilent({ scopes, account }).catch(() => null);
      if (silent) return silent.accessToken;
    }
    const signedIn = await msal.acquireTokenPopup({ scopes });
    account = signedIn.account;
    return signedIn.accessToken;
  });
}

/**
 * The signed-in person's token source: Office SSO first; MSAL where Office has none or Microsoft advises it.
 * The first token is asked for here, so a refusal is said at sign-in, not at the first load.
 */
export async function signIn(config: SignInConfig): Promise<TokenSource> {
  if (hasOfficeSso()) {
    const source = cached(() => Office.auth.getAccessToken({ allowSignInPrompt: true, allowConsentPrompt: true, forMSGraphAccess: false }));
    try {
      await source();
      return source;
    } catch (error) {
      const code = ssoCode(error);
      if (code === undefined || !FALL_BACK.has(code)) {
        throw new TeamGatewayError(SSO_SENTENCES[code ?? 0] ?? `Office could not sign you in (error ${code ?? "unknown"}).`, 0);
      }
    }
  }
  const source = await msalSource(config);
  await source();
  return source;
}
