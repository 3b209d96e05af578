/** The Corporate cards table. */
import type { Card } from "../../api";
import { fullName, type Column } from "../columns";
import { statusColumn } from "./tracking";

export function cardColumns(expand: ReadonlySet<string>): Column<Card>[] {
  const columns: Column<Card>[] = [
    { key: "id", header: "Card ID", kind: "id", value: (c) => c.id, width: 250 },
    { key: "last_four_digits", header: "Last four digits", kind: "id", value: (c) => c.last_four_digits },
  ];
  if (expand.has("user")) {
    columns.push(
      { key: "user_name", header: "Card holder", kind: "text", value: (c) => fullName(c.user) },
      { key: "user_email", header: "Card holder email", kind: "text", value: (c) => c.user?.email },
    );
  } else columns.push({ key: "user_id", header: "Card holder ID", kind: "id", value: (c) => c.user_id });
  columns.push({ key: "bank_id", header: "Bank ID", kind: "id", value: (c) => c.bank_id });
  if (expand.has("bank")) columns.push({ key: "bank_name", header: "Bank", kind: "text", value: (c) => c.bank?.name });
  columns.push(
    { key: "national_balance_currency", header: "National currency", kind: "text", value: (c) => c.national_balance_currency },
    { key: "international_balance_currency", header: "International currency", kind: "text", value: (c) => c.international_balance_currency },
    { key: "billing_day", header: "Billing day", kind: "integer", value: (c) => c.billing_day },
    { key: "billing_mode", header: "Billing mode", kind: "text", value: (c) => c.billing_mode },
    statusColumn<Card>(),
  );
  return columns;
}
