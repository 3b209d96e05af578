/**
 * What a `*OrNullObject` method answers when the item does not exist: Excel gives Office.js a null object
 * (its Instantiate and every Query answer `null`, so `isNullObject` is true after a sync). Setting a
 * property or calling a method on it is not documented; the in-memory Excel refuses it (strict), so an
 * add-in that forgets to check `isNullObject` fails in the tests rather than silently doing nothing.
 */
import { FakeExcelError } from "../errors";
import { HostObject, type Members } from "./host-object";

export class NullHostObject extends HostObject {
  /** Office.js asks Excel to keep every Range and RangeAreas it hands out (`_KeepReference`), a null one too: kept, as null. */
  override readonly keepable: boolean;

  constructor(readonly className: string, private readonly what: string) {
    super();
    this.keepable = className === "Range" || className === "RangeAreas";
  }

  override get isNull(): boolean {
    return true;
  }

  protected members(): Members {
    throw new FakeExcelError("ItemNotFound", `${this.what} doesn't exist (a null object: check isNullObject before using it).`);
  }

  override navigate(): HostObject {
    return this;
  }
}
