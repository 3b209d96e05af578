/**
 * Month-end files generated from the demo data, with their real difficulties and a hidden truth to score the
 * matching: a bank's payment file (payments by reference, by person and amount only, one payment of three
 * allowances of one person, rounding differences, a reversed payment, duplicates, a record of another
 * subsidiary, records already paid) and an ERP's journal (accounting document numbers). The truth never enters
 * the file: it says, per line, what a matcher should do (fill these records, list the line as ambiguous, or
 * fill nothing) and why.
 */
import { BANK_FORMAT, ERP_FORMAT, amountText, csvText, fileBytes, type FileFormat } from "./import-format";
import { dayOf, dayText, fileRecords, minorOf, type FileRecord, type FileResource } from "./import-records";
import { DECIMALS } from "./demo-money";
import type { SandboxData } from "./model";
import { Random } from "./random";
import { truthOf, type Entry } from "./import-truth";

import type { LineTruth } from "./import-truth";

export interface GeneratedFile {
  kind: "bank" | "erp";
  header: string[];
  rows: string[][];
  format: FileFormat;
  text: string;
  bytes: Uint8Array;
  /** Per line of the file (header is line 1): what a matcher should do. Never part of the file. */
  truth: LineTruth[];
}

export interface FileOptions {
  seed: number;
  resource: FileResource;
  subsidiaryId: string;
  /** The matching window the truth's "ambiguous" is judged by: days before a record's first day, after its last. */
  window: { before: number; after: number };
  /** Share of the open records the file pays (or books); 0.8 by default. */
  share?: number;
  /** Lines about nothing in the table (payments to suppliers), as a whole bank statement holds them; 0 by default. */
  noise?: number;
}

const PREFIX: Record<FileResource, string> = { expense: "EXP", allowance: "ALW" };
const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];
const strip = (t: string) => t.normalize("NFD").replace(/[\u0300-\u036f]/g, "");

/** The name of a person as one line writes it: as is, in capitals without accents, "Last, First", or the email. */
function personText(rng: Random, r: FileRecord): string {
  const { first_name: f, last_name: l, email } = r.person;
  return rng.pick([`${f} ${l}`, strip(`${l} ${f}`).toUpperCase(), `${l}, ${f}`, email]);
}

class FileBuilder {
  readonly entries: Entry[] = [];
  private payments = 0;

  constructor(readonly rng: Random, readonly kind: "bank" | "erp", readonly resource: FileResource) {}

  valueId(): string {
    this.payments++;
    return this.kind === "bank" ? `TRF-${String(this.rng.int(1, 9_999_999)).padStart(7, "0")}-${this.payments}` : `JE-2026-${String(this.payments).padStart(6, "0")}`;
  }

  ref(r: FileRecord, style: "prefixed" | "uuid" | "weak" | "none"): string {
    if (style === "prefixed") return this.rng.pick([`${PREFIX[this.resource]}-${r.number}`, `${PREFIX[this.resource]}-${String(r.number).padStart(6, "0")}`, `${PREFIX[this.resource]}#${r.number}`]);
    if (style === "uuid") return r.id;
    if (style === "weak") return `${this.resource === "allowance" ? "Viatico" : "Rendicion"} ${r.number}`;
    return this.rng.pick(this.kind === "bank" ? ["Transferencia a terceros", "Pago proveedores", "Reembolso", "PAGO NOMINA"] : ["Expense report", "Reimbursement", "Employee expenses"]);
  }

  day(r: FileRecord): string {
    if (this.resource === "allowance" && this.kind === "bank") return dayText(this.rng.int(dayOf(r.first) - 10, dayOf(r.last) + 20));
    return dayText(dayOf(r.last) + this.rng.int(2, 35));
  }

  add(e: Omit<Entry, "person"> & { person?: string }, r?: FileRecord): Entry {
    const entry = { ...e, person: e.person ?? (r ? personText(this.rng, r) : "") };
    this.entries.push(entry);
    return entry;
  }
}

/** Lines paying (or booking) one record each, with the record-level difficulties. */
function recordLines(b: FileBuilder, paying: FileRecord[]): void {
  const { rng } = b;
  for (const r of paying) {
    const style = rng.weighted({ prefixed: 50, uuid: 8, weak: 7, none: 35 });
    const rounding = style !== "none" && style !== "weak" && rng.chance(0.06);
    const one = 1 / 10 ** (DECIMALS[r.currency] ?? 2);
    const amount = rounding ? r.amount + (rng.chance(0.5) ? one : -one) : r.amount;
    const day = b.day(r);
    const value = b.valueId();
    const line = { day, reference: b.ref(r, style), amount, currency: r.currency, value, explicit: style !== "none", expect: "fill" as const, ids: [r.id], about: [r.id], case: rounding ? "rounding" : `by ${style}` };
    if (rng.chance(0.03)) {
      // Paid, reversed (the bank returned it), paid again under another id.
      b.add({ ...line, expect: "none", ids: [], case: "reversed" }, r);
      b.add({ ...line, day: dayText(dayOf(day) + 2), amount: -amount, expect: "none", ids: [], case: "reversal" }, r);
      b.add({ ...line, day: dayText(dayOf(day) + 5), value: b.valueId(), case: "paid again after a reversal" }, r);
    } else if (style === "prefixed" && rng.chance(0.02)) {
      const first = b.add({ ...line, expect: "ambiguous", case: "listed twice" }, r);
      b.add({ ...first }, r);
    } else b.add(line, r);
  }
}

/** One payment of three allowances of one person, by references or by the exact sum alone; returns the records it took. */
function sumLines(b: FileBuilder, paying: FileRecord[], window: FileOptions["window"]): Set<FileRecord> {
  const taken = new Set<FileRecord>();
  if (b.resource !== "allowance" || b.kind !== "bank") return taken;
  const byPerson = new Map<string, FileRecord[]>();
  for (const r of paying) byPerson.set(r.person.id, [...(byPerson.get(r.person.id) ?? []), r]);
  for (const group of byPerson.values()) {
    if (group.length < 3 || !b.rng.chance(0.35)) continue;
    const three = group.slice(0, 3).filter((r) => r.currency === group[0].currency);
    if (three.length < 3) continue;
    const day = Math.max(...three.map((r) => dayOf(r.last))) + b.rng.int(1, 5);
    if (three.some((r) => day < dayOf(r.first) - window.before || day > dayOf(r.last) + window.after)) continue;
    const byRefs = b.rng.chance(0.5);
    const amount = Math.round(three.reduce((s, r) => s + minorOf(r.amount, r.currency), 0)) / 10 ** (DECIMALS[three[0].currency] ?? 2);
    b.add({
      day: dayText(day), reference: byRefs ? three.map((r) => `ALW-${r.number}`).join(" ") : `Viaticos ${MONTHS[new Date(day * 86_400_000).getUTCMonth()]}`,
      amount, currency: three[0].currency, value: b.valueId(), explicit: byRefs, expect: "fill", ids: three.map((r) => r.id), about: three.map((r) => r.id), case: byRefs ? "three allowances by references" : "three allowances by their sum",
    }, three[0]);
    for (const r of three) taken.add(r);
  }
  return taken;
}

/** Lines a matcher must fill nothing from: another subsidiary's record, records already done, a record not approved. */
function otherLines(b: FileBuilder, done: FileRecord[], notReady: FileRecord[], foreign: FileRecord[], count: number): void {
  const { rng } = b;
  const held = (r: FileRecord) => (b.kind === "bank" ? r.paid_id : r.accounted_id);
  const pick = (list: FileRecord[], n: number) => Array.from({ length: Math.min(n, list.length) }, () => rng.pick(list));
  for (const r of new Set(pick(foreign, Math.ceil(count * 0.04)))) {
    b.add({ day: b.day(r), reference: `${PREFIX[b.resource]}-${r.number}`, amount: r.amount, currency: r.currency, value: b.valueId(), explicit: false, expect: "none", ids: [], about: [], case: "another subsidiary's record" }, r);
  }
  for (const r of new Set(pick(done.filter(held), Math.ceil(count * 0.05)))) {
    const again = rng.chance(0.6);
    b.add({ day: b.day(r), reference: `${PREFIX[b.resource]}-${r.number}`, amount: r.amount, currency: r.currency, value: again ? held(r)! : b.valueId(), explicit: true, expect: "none", ids: [], about: [r.id], case: again ? "already holds this value" : "holds another value" }, r);
  }
  for (const r of new Set(pick(notReady, Math.ceil(count * 0.02)))) {
    b.add({ day: b.day(r), reference: `${PREFIX[b.resource]}-${r.number}`, amount: r.amount, currency: r.currency, value: b.valueId(), explicit: true, expect: "none", ids: [], about: [r.id], case: `a ${r.state} record` }, r);
  }
}

/** Payments to suppliers: a statement's other lines, about no record (a number in words is no record's). */
function noiseLines(b: FileBuilder, count: number, records: FileRecord[]): void {
  const { rng } = b;
  const currency = records[0]?.currency ?? "CLP";
  const days = records.map((r) => dayOf(r.first));
  const [from, to] = [days.reduce((a, d) => Math.min(a, d), Infinity), days.reduce((a, d) => Math.max(a, d), -Infinity) + 30];
  for (let i = 0; i < count; i++) {
    b.add({
      day: dayText(rng.int(from, to)), person: `${rng.pick(["Comercial", "Servicios", "Distribuidora", "Transportes"])} ${rng.pick(["Andes", "Pacifico", "Norte", "Sur"])} ${rng.pick(["SpA", "Ltda", "S.A."])}`,
      reference: `Factura ${rng.int(1000, 99999)}`, amount: rng.int(1000, 5_000_000) / (currency === "CLP" ? 1 : 100), currency, value: b.valueId(),
      explicit: false, expect: "none", ids: [], about: [], case: "a payment to a supplier",
    });
  }
}

const HEADERS = {
  bank: ["Fecha valor", "Beneficiario", "Referencia", "Monto", "Moneda", "ID Pago"],
  erp: ["Document No.", "Posting Date", "Reference", "Description", "Debit", "Currency", "Employee"],
} as const;

function rowOf(kind: "bank" | "erp", e: Entry, format: FileFormat): string[] {
  const amount = amountText(e.amount, e.currency, format);
  return kind === "bank"
    ? [format.date(e.day), e.person, e.reference, amount, e.currency, e.value]
    : [e.value, format.date(e.day), e.explicit ? e.reference : "", e.explicit ? "Expense report" : e.reference, amount, e.currency, e.person];
}

function build(kind: "bank" | "erp", data: SandboxData, o: FileOptions): GeneratedFile {
  const rng = new Random(o.seed, `import-${kind}-${o.resource}`);
  const records = fileRecords(data, o.resource, o.subsidiaryId);
  const ready = kind === "bank" ? ["approved", "accounted"] : ["approved"];
  const open = records.filter((r) => ready.includes(r.state));
  const paying = open.filter(() => rng.chance(o.share ?? 0.8));
  const b = new FileBuilder(rng, kind, o.resource);
  const inSums = sumLines(b, paying, o.window);
  recordLines(b, paying.filter((r) => !inSums.has(r)));
  const done = records.filter((r) => (kind === "bank" ? r.state === "paid" : r.state === "accounted" || r.state === "paid"));
  const notReady = records.filter((r) => r.state === "pending" || r.state === "rejected" || r.state === "draft");
  otherLines(b, done, notReady, fileRecords(data, o.resource, o.subsidiaryId, true), paying.length);
  noiseLines(b, o.noise ?? 0, records);
  const entries = b.entries.map((e, i) => ({ e, i })).sort((x, y) => x.e.day.localeCompare(y.e.day) || x.i - y.i).map((x) => x.e);
  const format = kind === "bank" ? BANK_FORMAT : ERP_FORMAT;
  const header = [...HEADERS[kind]];
  const rows = entries.map((e) => rowOf(kind, e, format));
  const text = csvText(header, rows, format);
  return { kind, header, rows, format, text, bytes: fileBytes(text, format), truth: truthOf(entries, records, o.window, kind, o.resource === "allowance") };
}

/** A bank's payment file for a subsidiary's allowances or expenses (Windows-1252, `;`, decimal comma, day first). */
export const generateBankFile = (data: SandboxData, options: FileOptions) => build("bank", data, options);

/** An ERP's journal export booking a subsidiary's approved records (UTF-8 with BOM, `,`, month first). */
export const generateErpFile = (data: SandboxData, options: FileOptions) => build("erp", data, options);
