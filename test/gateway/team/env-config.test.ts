/** `npm run team -- serve` reads its configuration from the environment: what it takes, and each mistake named by its variable. */
import { checkTeamConfig } from "../../../src/gateway/team/config";
import { teamConfigFromEnv } from "../../../src/gateway/team/env";

const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const ENV = {
  TEAM_TENANTS: `${TENANT}, 11111111-2222-4333-8444-555555555555`,
  TEAM_AUDIENCE: "api://gateway.contoso.com/6e0c0e7e-0000-4000-8000-000000000001",
  TEAM_ROLES: JSON.stringify({ people: { "Ana@Contoso.com": ["approver"] }, groups: { "g-1": ["preparer", "viewer"] } }),
  SPEND_ENTERPRISE_ID: "3b51ab9b-21f7-47ac-bc62-95a0c0fd3851",
  SPEND_ENTERPRISE_KEY: "sk_live_secret_value_1234567890",
  TEAM_BATCH_VALIDITY_HOURS: "8",
};

test("a deployment's variables make a configuration: Entra ID's issuer and keys by default, people matched in any case", () => {
  const config = checkTeamConfig(teamConfigFromEnv(ENV));
  expect(config).toMatchObject({
    tenants: [TENANT, "11111111-2222-4333-8444-555555555555"],
    issuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
    jwksUrl: `https://login.microsoftonline.com/${TENANT}/discovery/v2.0/keys`,
    people: { "ana@contoso.com": ["approver"] },
    groups: { "g-1": ["preparer", "viewer"] },
    batchValidityMs: 8 * 3_600_000,
  });
});

test("a missing or malformed variable is named, and no message repeats the key", () => {
  for (const name of ["TEAM_TENANTS", "TEAM_AUDIENCE", "SPEND_ENTERPRISE_ID", "SPEND_ENTERPRISE_KEY"]) {
    expect(() => teamConfigFromEnv({ ...ENV, [name]: " " })).toThrow(`${name} is not set`);
  }
  expect(() => teamConfigFromEnv({ ...ENV, TEAM_ROLES: "{people:" })).toThrow(/^TEAM_ROLES is not JSON/);
  expect(() => teamConfigFromEnv({ ...ENV, TEAM_BATCH_VALIDITY_HOURS: "0" })).toThrow(/TEAM_BATCH_VALIDITY_HOURS/);
  const unknownRole = teamConfigFromEnv({ ...ENV, TEAM_ROLES: JSON.stringify({ groups: { g: ["admin"] } }) });
  expect(() => checkTeamConfig(unknownRole)).toThrow("Unknown role 'admin': roles are viewer, preparer, approver.");
  const messages: string[] = [];
  for (const env of [{ ...ENV, TEAM_AUDIENCE: "" }, { ...ENV, TEAM_ROLES: "x" }]) {
    try {
      teamConfigFromEnv(env);
    } catch (error) {
      messages.push((error as Error).message);
    }
  }
  expect(messages).toHaveLength(2);
  expect(messages.some((m) => m.includes(ENV.SPEND_ENTERPRISE_KEY))).toBe(false);
});
