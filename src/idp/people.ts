/**
 * The demo people of the local identity provider, one per role and a second approver, in one demo tenant.
 * Their ids are fixed so a team configuration (tools/team.ts) can name them; their groups carry the roles
 * the way an Entra ID groups claim would.
 */

export const DEMO_TENANT = "8f3c2a10-5b7e-4d21-9a64-2c1e0f7b9d35";
/** The audience the demo tokens are issued for: the gateway's (demo) app registration. */
export const DEMO_AUDIENCE = "api://spend-sync-gateway";
/** Group ids standing for the roles, as `groups` claims carry object ids. */
export const DEMO_GROUPS = {
  viewer: "0a7d1c55-0000-4000-8000-00000000000a",
  preparer: "0a7d1c55-0000-4000-8000-00000000000b",
  approver: "0a7d1c55-0000-4000-8000-00000000000c",
} as const;

export interface DemoPerson {
  oid: string;
  name: string;
  username: string;
  groups: readonly string[];
}

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { oid: "5d0e6a1b-1111-4c3a-9f00-000000000001", name: "Vera Viewer", username: "vera@demo.example", groups: [DEMO_GROUPS.viewer] },
  { oid: "5d0e6a1b-2222-4c3a-9f00-000000000002", name: "Pat Preparer", username: "pat@demo.example", groups: [DEMO_GROUPS.preparer] },
  { oid: "5d0e6a1b-3333-4c3a-9f00-000000000003", name: "Alex Approver", username: "alex@demo.example", groups: [DEMO_GROUPS.approver] },
  { oid: "5d0e6a1b-4444-4c3a-9f00-000000000004", name: "Sam Both", username: "sam@demo.example", groups: [DEMO_GROUPS.preparer, DEMO_GROUPS.approver] },
];
