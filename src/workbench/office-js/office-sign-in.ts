/**
 * The workbench's Office single sign-on: with `?idp=<identity provider>/<tenant>&person=<demo sign-in name>`,
 * the Excel of the page has IdentityAPI 1.3, and Office.auth.getAccessToken is answered by the local identity
 * provider (src/idp) for that person, as Office answers it with the signed-in work account. Workbench only:
 * the production build's leak check refuses src/workbench.
 */
import type { ExcelProfile } from "../fake-excel/profiles";

/** Office's error for "no account signed in to Office" (13001), as Office.auth rejects with it. */
function notSignedIn(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: 13001 });
}

/** The profile, with IdentityAPI 1.3 and Office.auth answered by the identity provider when the page names one. */
export function withOfficeSignIn(profile: ExcelProfile, params: URLSearchParams): ExcelProfile {
  const idp = params.get("idp");
  const person = params.get("person");
  if (!idp || !person) return profile;
  const getAccessToken = async (): Promise<string> => {
    const answer = await fetch(`${idp.replace(/\/+$/, "")}/oauth2/v2.0/token`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ username: person }),
    });
    const body = (await answer.json().catch(() => ({}))) as { access_token?: string; error_description?: string };
    if (!answer.ok || !body.access_token) throw notSignedIn(body.error_description ?? `The identity provider answered ${answer.status}.`);
    return body.access_token;
  };
  Object.defineProperty(Office, "auth", { value: { ...Reflect.get(Office, "auth"), getAccessToken }, configurable: true });
  return { ...profile, sets: { ...profile.sets, IdentityAPI: "1.3" } };
}
