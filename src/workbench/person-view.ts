/**
 * The workbook view that tells the in-memory Excel where the person is. In Excel the sheet on screen is the
 * active sheet and the cells a person selected are the selection (Workbook.getSelectedRange reads them); here
 * the view keeps both, so every tab shown and every selection made is passed on to the model, as a person's
 * clicks would be. The ribbon's commands then act on what the person is looking at.
 */
import type { FakeExcel } from "./fake-excel";
import { formatArea } from "./fake-excel/address";
import { areaOf, type Point, type Selection } from "./selection";
import { WorkbookView, type WorkbookViewElements } from "./workbook-view";
import type { Entries } from "./entry";

export class PersonView extends WorkbookView {
  private readonly person: FakeExcel;

  constructor(excel: FakeExcel, entries: Entries, el: WorkbookViewElements) {
    super(excel, entries, el);
    this.person = excel;
  }

  override select(selection: Selection, options: { keepTabColumn?: boolean } = {}): void {
    super.select(selection, options);
    this.tell();
  }

  override showSheet(name: string, at?: Point): void {
    super.showSheet(name, at);
    this.tell();
  }

  /** The sheet shown and its selection, into the model (the view shows only visible sheets). */
  private tell(): void {
    this.person?.user.select(this.sheetName, formatArea(areaOf(this.selection)));
  }
}
