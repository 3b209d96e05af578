/**
 * Team mode end to end (issue 48): the workbench against the real sandbox, the local identity provider and the
 * gateway in team mode (PGlite in memory), all on free loopback ports. Pat (preparer) previews and submits 50
 * rows, Alex (approver) opens and approves the batch in a second page, Pat's Sync approved batch sends them;
 * the journal and the gateway's audit export agree row for row. The enterprise's key is in no browser storage,
 * page, console line, answer the browser read, or gateway log line.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { formatJson } from "../../src/gateway";
import { startGateway, type RunningGateway } from "../../src/gateway/node-server";
import { openPglite } from "../../src/gateway/team/databases";
import { createTeamGate } from "../../src/gateway/team/gate";
import { DEMO_GROUPS } from "../../src/idp/people";
import { startIdp, type RunningIdp } from "../../src/idp/server";
import { JOURNAL_TABLE } from "../../src/sync";
import { expectText } from "../support/expect-text";
import { OUT, columnOf, loadAllExpenses, modelTable, startWorkbench, type WorkbenchRig } from "../support/workbench-page";

jest.setTimeout(300_000);

let rig: WorkbenchRig;
let idp: RunningIdp;
let gateway: RunningGateway;
const gatewayLog: string[] = [];

/** A certificate for 127.0.0.1, made for this run: MSAL accepts only an https authority. */
function loopbackCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "team-idp-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" });
  return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
}

beforeAll(async () => {
  rig = await startWorkbench();
  idp = await startIdp({ allowOrigins: [rig.url], tls: loopbackCertificate() });
  // Jest's environment carries a `window` (for Office.js), which makes PGlite take itself for a page; none is used here.
  Reflect.deleteProperty(globalThis, "window");
  const gate = await createTeamGate({
    tenants: [idp.tenant], issuer: idp.issuer.replace(idp.tenant, "{tenantid}"), audience: idp.audience, jwksUrl: idp.jwksUrl,
    groups: { [DEMO_GROUPS.viewer]: ["viewer"], [DEMO_GROUPS.preparer]: ["preparer"], [DEMO_GROUPS.approver]: ["approver"] },
    enterpriseId: rig.f.enterprise.id, enterpriseKey: rig.f.enterprise.api_key,
    // The sign-in window (MSAL) where Excel has no single sign-on: the identity provider's https authority.
    signIn: { clientId: "spend-sync-addin", authority: `${idp.secureBaseUrl}/${idp.tenant}`, scopes: [`${idp.audience}/access_as_user`] },
  }, await openPglite());
  gateway = await startGateway({ target: rig.f.sandbox.baseUrl, allowOrigins: [rig.url], team: gate, log: (entry) => gatewayLog.push(formatJson(entry)) });
});
afterAll(async () => {
  await gateway?.close();
  await idp?.close();
  await rig?.close();
});

/** What a page showed and read: console lines, page errors and every answer's body. */
interface Seen { page: Page; console: string[]; answers: string[] }

/** The workbench as `person` would have it: Office's sign-in answered by the identity provider for them. */
async function openAs(person: string): Promise<Seen> {
  const page = await rig.browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const seen: Seen = { page, console: [], answers: [] };
  page.on("console", (m) => seen.console.push(m.text()));
  page.on("pageerror", (e) => seen.console.push(e.message));
  page.on("response", (r) => void r.text().then((t) => seen.answers.push(t), () => undefined));
  await page.goto(`${rig.url}/workbench.html?idp=${encodeURIComponent(`${idp.baseUrl}/${idp.tenant}`)}&person=${person}`);
  await page.getByLabel("Team (through your gateway)").check();
  await expect(page.locator("#api-key").isVisible()).resolves.toBe(false);
  await page.getByLabel("Gateway address").fill(gateway.baseUrl);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectText(page.locator("#team-status"), new RegExp(`^Signed in as .* \\(${person.replace(".", "\\.")}\\): `));
  return seen;
}

/** Everything the browser keeps for the page's origin: both storages, IndexedDB's databases and their records, cookies. */
async function browserStorage(page: Page): Promise<string> {
  const kept = await page.evaluate(async () => {
    const all = (s: Storage) => Object.fromEntries(Array.from({ length: s.length }, (_, i) => [s.key(i), s.getItem(s.key(i)!)]));
    const dbs = await indexedDB.databases();
    const records: unknown[] = [];
    for (const { name } of dbs) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => { const r = indexedDB.open(name); r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
      for (const store of Array.from(db.objectStoreNames)) {
        records.push(await new Promise((resolve) => { const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => resolve(r.result); }));
      }
      db.close();
    }
    return JSON.stringify({ local: all(localStorage), session: all(sessionStorage), dbs, records, cookie: document.cookie });
  });
  return kept + JSON.stringify(await page.context().cookies());
}

/** The export's rows: every field quoted, a quote inside doubled, lines ended by CRLF (bodies hold commas and quotes). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const match of text.matchAll(/"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*(?=\r\n|$)/g)) {
    rows.push([...match[0].matchAll(/"((?:[^"]|"")*)"/g)].map((f) => f[1].replaceAll('""', '"')));
  }
  return rows;
}

test("a preparer submits 50 rows, an approver approves them in a second page, they sync; journal and audit export agree row for row; the key is nowhere", async () => {
  const sub = rig.f.enterprise.subsidiaries[0];
  const approved = rig.f.sandbox.store.expensesOf(sub).filter((e) => e.state === "approved").slice(0, 50);
  expect(approved).toHaveLength(50);

  const pat = await openAs("pat@demo.example");
  await expectText(pat.page.locator("#team-status"), /: preparer\.$/);
  const table = await loadAllExpenses(pat.page, sub);
  const sheet = (await modelTable(pat.page, table)).header;
  expect(sheet).toContain("State");
  const [state, accounted] = [await columnOf(pat.page, "State"), await columnOf(pat.page, "Accounted ID")];
  const ids = (await modelTable(pat.page, table)).values(sheet[0]).map(String);
  // 100 cells typed as a person types them (UserActions: validation and Text cells apply), in one go.
  await pat.page.evaluate(({ cells }) => {
    const { excel } = Reflect.get(window, "spendWorkbench");
    const sheetName = excel.model.tables.find((t: { name: string }) => t.name === cells.table).sheet.name;
    for (const [address, text] of cells.typed) excel.user.type(sheetName, address, text);
  }, { cells: { table, typed: approved.flatMap((e, i) => [[`${state}${ids.indexOf(e.id) + 2}`, "accounted"], [`${accounted}${ids.indexOf(e.id) + 2}`, `ACC-TEAM-${i + 1}`]]) } });

  await pat.page.getByRole("button", { name: "Preview sync" }).click();
  await expectText(pat.page.locator("#preview-counts"), /^50 to send, 0 invalid/);
  await expect(pat.page.locator("#confirm-sync").isVisible()).resolves.toBe(false);
  await pat.page.getByRole("button", { name: "Submit for approval" }).click();
  await expectText(pat.page.locator("#team-submit-status"), /^Submitted batch \S+: 50 rows \((\d+ to accounted, [\d.]+ [A-Z]{3}(; )?)+\), prepared by Pat Preparer\./);
  const batchId = /^Submitted batch (\S+):/.exec((await pat.page.locator("#team-submit-status").textContent())!)![1];
  // The totals per currency add up to the 50 rows (the gateway refuses totals its own exact sums do not give).
  expect([...(await pat.page.locator("#team-submit-status").textContent())!.matchAll(/(\d+) to accounted/g)].reduce((n, m) => n + Number(m[1]), 0)).toBe(50);
  const statusOf = async () => { const t = await modelTable(pat.page, table); return approved.map((e) => String(t.values("Sync status")[ids.indexOf(e.id)])); };
  expect(new Set(await statusOf())).toEqual(new Set([`Waiting for approval (batch ${batchId.slice(0, 8)}): nothing sent yet.`]));
  // Before approval nothing goes: the sandbox still holds every record approved.
  await pat.page.getByRole("button", { name: "Sync approved batch" }).click();
  await expectText(pat.page.locator("#team-submit-status"), new RegExp(`^Batch ${batchId} is waiting for an approver`));
  expect(approved.map((e) => rig.f.sandbox.store.expensesOf(sub).find((x) => x.id === e.id)!.state)).toEqual(approved.map(() => "approved"));

  // The link Pat sends: opened in a browser, the gateway says what to do with it; pasted in Alex's taskpane, it opens the batch.
  const link = await pat.page.locator("#team-batch-link").inputValue();
  expect(link).toBe(`${gateway.baseUrl}/team/v1/link/${batchId}`);
  const linkPage = await fetch(link);
  expect([linkPage.status, await linkPage.text()]).toEqual([200, expect.stringContaining(`Spend Sync batch ${batchId} is waiting for an approver.`)]);
  const alex = await openAs("alex@demo.example");
  await expectText(alex.page.locator("#team-status"), /: approver\.$/);
  await alex.page.getByLabel("Open a batch by its link or id").fill(link.replace(gateway.baseUrl, "https://elsewhere.example"));
  await alex.page.locator("#team-open").click();
  await expectText(alex.page.locator("#team-list-status"), /^This link is not of your gateway/);
  await alex.page.getByLabel("Open a batch by its link or id").fill(link);
  await alex.page.locator("#team-open").click();
  await expectText(alex.page.locator("#team-batch-head"), new RegExp(`^Batch ${batchId}: 50 rows from ${table}, prepared by Pat Preparer on .*; pending, valid until`));
  await expectText(alex.page.locator("#team-list-status"), `Batch ${batchId.slice(0, 8)} is open below.`); // the refusal above no longer shown
  await expect(alex.page.locator(".team-rows li").count()).resolves.toBe(50);
  // Money as the add-in shows it everywhere: each currency's ISO 4217 decimals, thousands grouped (CLP none, EUR and USD two).
  const shape: Record<string, RegExp> = { CLP: /^\d{1,3}(,\d{3})*$/, EUR: /^\d{1,3}(,\d{3})*\.\d{2}$/, USD: /^\d{1,3}(,\d{3})*\.\d{2}$/ };
  const rowTexts = await alex.page.locator(".team-rows li").allTextContents();
  for (const text of rowTexts) {
    const [, amount, currency] = /: approved → accounted, ([\d.,]+) ([A-Z]{3})$/.exec(text) ?? [];
    expect([text, shape[currency]?.test(amount)]).toEqual([text, true]);
  }
  const totals = await alex.page.locator(".team-totals tr").evaluateAll((trs) => trs.slice(1).map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
  expect(totals.map(([, currency]) => currency).sort()).toEqual(["CLP", "EUR", "USD"]);
  for (const [, currency, , amount] of totals) expect([currency, shape[currency].test(amount)]).toEqual([currency, true]);
  const listed = [...((await alex.page.locator("#team-pending li").first().textContent()) ?? "").matchAll(/\d+ to accounted ([\d.,]+) ([A-Z]{3})/g)];
  expect(listed.map((m) => [m[2], shape[m[2]].test(m[1])])).toEqual([["CLP", true], ["EUR", true], ["USD", true]]);
  await alex.page.locator("#team-approval").screenshot({ path: join(OUT, "team-approver.png") });
  await alex.page.getByLabel("Comment").fill("Checked against the November run.");
  await alex.page.getByRole("button", { name: "Approve" }).click();
  await expectText(alex.page.locator("#team-batch-head"), /; approved by Alex Approver on .*: "Checked against the November run\."$/);

  await pat.page.getByRole("button", { name: "Sync approved batch" }).click();
  // Ended: the batch's summary, or an error line (then expectText below says which).
  await pat.page.waitForFunction((id) => { const line = document.getElementById("team-submit-status"); return line?.className === "error" || (line?.textContent ?? "").startsWith(`Batch ${id}, approved`); }, batchId, { timeout: 120_000 });
  await expectText(pat.page.locator("#team-submit-status"), new RegExp(`^Batch ${batchId}, approved by Alex Approver: 50 applied`));
  expect((await statusOf()).filter((s) => !/^Applied .*: approved → accounted$/.test(s))).toEqual([]);
  // Where the preview listed what would be sent, the outcome: the summary, and no row left to send.
  await expectText(pat.page.locator("#sync-status"), new RegExp(`^Batch ${batchId}, approved by Alex Approver: 50 applied`));
  await expect(pat.page.locator("#preview").textContent()).resolves.not.toMatch(/will send/);
  await expect(pat.page.locator("#confirm-sync").isDisabled()).resolves.toBe(true);
  expect(approved.map((e) => rig.f.sandbox.store.expensesOf(sub).find((x) => x.id === e.id)!.state)).toEqual(approved.map(() => "accounted"));
  await pat.page.screenshot({ path: join(OUT, "team-synced-sheet.png") });

  // The journal (Pat's workbook) and the gateway's audit export: the same 50 PATCHes, each with its answer.
  const journal = await modelTable(pat.page, JOURNAL_TABLE);
  const patches = journal.values("Request").map((r, i) => ({ r, id: String(journal.values("Record ID")[i]), status: journal.values("HTTP status")[i], by: journal.values("By")[i], outcome: journal.values("Outcome")[i] }))
    .filter((l) => l.r === "PATCH" && l.outcome !== "sending");
  expect(patches.map((p) => p.id).sort()).toEqual(approved.map((e) => e.id).sort());
  expect(new Set(patches.map((p) => `${p.status} ${p.by} ${p.outcome}`))).toEqual(new Set(["200 Pat Preparer applied"]));
  const csv = await (await fetch(`${gateway.baseUrl}/team/v1/batches/${batchId}/audit.csv`, { headers: { Authorization: `Bearer ${await idp.tokenFor("alex@demo.example")}` } })).text();
  const lines = csvRows(csv);
  const [header, ...rows] = lines;
  const at = (name: string) => header.indexOf(name);
  expect(rows).toHaveLength(50);
  const audited = rows.map((r) => ({ id: /\/expenses\/([^/]+)\/$/.exec(r[at("path")])![1], status: Number(r[at("answer_status")]), preparer: r[at("preparer")], by: r[at("decided_by")], decision: r[at("decision")] }));
  expect(audited.map((a) => a.id).sort()).toEqual(patches.map((p) => p.id).sort());
  for (const p of patches) expect(audited.find((a) => a.id === p.id)).toEqual({ id: p.id, status: p.status, preparer: expect.stringMatching(/^Pat Preparer \(/), by: expect.stringMatching(/^Alex Approver \(/), decision: "approved" });

  // The key: in no storage, page, console line or answer of either browser, nor in the gateway's log or the export.
  const key = rig.f.enterprise.api_key;
  for (const seen of [pat, alex]) {
    expect(await browserStorage(seen.page)).not.toContain(key);
    expect(await seen.page.content()).not.toContain(key);
    expect(seen.console.join("\n")).not.toContain(key);
    expect(seen.answers.length).toBeGreaterThan(0);
    expect(seen.answers.join("\n")).not.toContain(key);
  }
  // Back to the single-person mode: the gateway's session is gone and Confirm and sync is offered again.
  await pat.page.getByLabel("Single person (your own key)").check();
  await expect(pat.page.locator("#confirm-sync").isVisible()).resolves.toBe(true);
  await expect(pat.page.locator("#team-approval").isVisible()).resolves.toBe(false);
  await expectText(pat.page.locator("#team-status"), /^Not signed in\.$/);

  expect(gatewayLog.length).toBeGreaterThan(100);
  expect(gatewayLog.join("\n")).not.toContain(key);
  expect(csv).not.toContain(key);
});

test("where Excel has no single sign-on, the person signs in through the identity provider's window (MSAL, authorization code with PKCE) and the gateway knows them", async () => {
  const page = await rig.browser.newPage({ viewport: { width: 1500, height: 1000 }, ignoreHTTPSErrors: true });
  const lines: string[] = [];
  page.on("console", (m) => lines.push(m.text()));
  page.on("response", (r) => void (r.status() >= 400 && lines.push(`${r.status()} ${r.url()}`)));
  // No ?idp: this Excel has no IdentityAPI 1.3, so the taskpane opens the sign-in window.
  await page.goto(`${rig.url}/workbench.html`);
  await page.getByLabel("Team (through your gateway)").check();
  await page.getByLabel("Gateway address").fill(gateway.baseUrl);
  const [popup] = await Promise.all([page.waitForEvent("popup", { timeout: 60_000 }), page.getByRole("button", { name: "Sign in" }).click()]);
  // MSAL opens the window blank, reads the authority's openid-configuration, then sends the window to authorize.
  const authorize = new RegExp(`^${idp.secureBaseUrl}/${idp.tenant}/oauth2/v2.0/authorize\\?.*code_challenge_method=S256`);
  await popup.waitForURL(authorize, { timeout: 60_000 }).catch(() => undefined);
  // (Else what the taskpane said, and the page's console, in the failure.)
  expect({ url: popup.url(), said: await page.locator("#team-status").textContent(), lines }).toMatchObject({ url: expect.stringMatching(authorize) });
  await popup.locator("#as-vera").click();
  await expectText(page.locator("#team-status"), /^Signed in as Vera Viewer \(vera@demo\.example\): viewer\.$/);
  // The token lives in memory only: nothing of it in the page's storage.
  const kept = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
  expect(kept).not.toMatch(/eyJ[\w-]+\.eyJ/);
  expect(lines.filter((line) => /error/i.test(line) && !/favicon/.test(line))).toEqual([]);
  await page.close();
});
