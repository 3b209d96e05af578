/** Team mode's configuration for tests: the local identity provider's tenant and keys, the demo groups' roles. */
import type { TeamConfig } from "../../../src/gateway/team/config";
import { DEMO_GROUPS } from "../../../src/idp/people";
import type { RunningIdp } from "../../../src/idp/server";

const ENTERPRISE_KEY = "sk_team_0123456789abcdef0123456789abcdef";

export function teamConfigFor(idp: RunningIdp, overrides: Partial<TeamConfig> = {}): TeamConfig {
  return {
    tenants: [idp.tenant],
    issuer: idp.issuer.replace(idp.tenant, "{tenantid}"),
    audience: idp.audience,
    jwksUrl: idp.jwksUrl,
    groups: { [DEMO_GROUPS.viewer]: ["viewer"], [DEMO_GROUPS.preparer]: ["preparer"], [DEMO_GROUPS.approver]: ["approver"] },
    enterpriseKey: ENTERPRISE_KEY,
    enterpriseId: "00000000-0000-4000-8000-000000000000",
    ...overrides,
  };
}
