/**
 * An object of the in-memory Excel as the wire protocol reaches it: scalar properties (read by a Query, set
 * by SetProperty), navigation properties (object paths of type "property"), and methods (object paths of
 * type "method" when they return an object, Method actions otherwise). Names are Excel's on the wire
 * (PascalCase); the camelCase of a Query's Select is matched to them.
 */
import type { ChangeEvents } from "./change-events";
import { FakeExcelError } from "../errors";
import type { SheetModel, TableModel, WorkbookModel } from "../model";

/** What every object of a request reaches: the workbook, and the objects it makes for sheets and tables. */
export interface HostContext {
  readonly model: WorkbookModel;
  /** The other workbooks open in this Excel (a person's own files beside ours): Application.calculate reaches them. */
  readonly otherWorkbooks: readonly WorkbookModel[];
  worksheet(sheet: SheetModel): HostObject;
  table(table: TableModel): HostObject;
  /** The change events this Excel raises to the add-in (change-events.ts). */
  readonly events: ChangeEvents;
}

export interface Scalar {
  get: () => unknown;
  set?: (value: unknown) => void;
}

export interface Members {
  /** Scalar properties, by wire name ("Values", "RowCount"). */
  scalars: Readonly<Record<string, Scalar>>;
  /** Navigation properties, by wire name ("Format", "Worksheets"). */
  navigation?: Readonly<Record<string, () => HostObject>>;
  /** Methods, by wire name ("GetRangeByIndexes", "Delete"); a method that returns an object returns a HostObject. */
  methods?: Readonly<Record<string, (...args: unknown[]) => unknown>>;
}

export abstract class HostObject {
  /** Excel's class name, for messages. */
  abstract readonly className: string;
  protected abstract members(): Members;

  /**
   * What an Instantiate answers besides a kept reference: `{ Id }` for objects Excel identifies by id
   * (worksheets, tables), so that Office.js can address them again in a later request; `{}` otherwise.
   */
  identity(): Record<string, unknown> {
    return {};
  }

  /** A collection's items' class (what a Query's Select names are members of). */
  readonly itemClass?: string;

  /** Ranges only: Office.js asks Excel to keep them (`_KeepReference`) inside Excel.run. */
  readonly keepable: boolean = false;

  get isNull(): boolean {
    return false;
  }

  /** A collection's items (a Query on a collection answers `{ _Items: [...] }`); undefined for other objects. */
  items(): HostObject[] | undefined {
    return undefined;
  }

  /** A collection's item by key (an object path of type "indexer"). */
  item(key: unknown): HostObject {
    throw new FakeExcelError("InvalidArgument", `The in-memory Excel's ${this.className} is not a collection (no item '${String(key)}').`);
  }

  private member<T>(table: Readonly<Record<string, T>> | undefined, name: string, kind: string): T {
    const found = table?.[name];
    if (!found) throw new FakeExcelError("InvalidArgument", `The in-memory Excel's ${this.className} has no ${kind} '${name}'.`);
    return found;
  }

  /** Every member this object answers, by kind, with its wire name (for the ledger of requirement sets). */
  memberNames(): { scalars: string[]; navigation: string[]; methods: string[] } {
    const members = this.members();
    return { scalars: Object.keys(members.scalars), navigation: Object.keys(members.navigation ?? {}), methods: Object.keys(members.methods ?? {}) };
  }

  navigate(name: string): HostObject {
    return this.member(this.members().navigation, name, "navigation property")();
  }

  call(name: string, args: unknown[]): unknown {
    return this.member(this.members().methods, name, "method")(...args);
  }

  set(name: string, value: unknown): void {
    const scalar = this.member(this.members().scalars, name, "property");
    if (!scalar.set) throw new FakeExcelError("InvalidArgument", `${this.className}.${lowerFirst(name)} is read-only.`);
    scalar.set(value);
  }

  /**
   * A Query's answer: the selected scalar properties under their wire names, a selected navigation
   * property ("format/fill/color") nested under its own; every scalar property when nothing is selected.
   */
  query(select: readonly string[] | undefined): Record<string, unknown> {
    const members = this.members();
    if (!select || select.length === 0) {
      return Object.fromEntries(Object.entries(members.scalars).map(([name, scalar]) => [name, scalar.get()]));
    }
    const out: Record<string, unknown> = {};
    const nested = new Map<string, string[]>();
    for (const path of select) {
      const [head, ...rest] = path.split("/");
      const name = upperFirst(head);
      if (rest.length > 0 || (members.navigation?.[name] && !members.scalars[name])) {
        nested.set(name, [...(nested.get(name) ?? []), ...(rest.length > 0 ? [rest.join("/")] : [])]);
        continue;
      }
      out[name] = this.member(members.scalars, name, "property").get();
    }
    for (const [name, paths] of nested) out[name] = this.navigate(name).query(paths);
    return out;
  }
}

const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
export const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** A read-only scalar. */
export const readOnly = (get: () => unknown): Scalar => ({ get });
