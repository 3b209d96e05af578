/**
 * What a Range's parts need of it, in a file of its own so that they need not import the Range that makes them
 * (range.ts imports its format, its data validation and its special cells: an import back would be a circle).
 */
import type { Area } from "../address";
import type { Cell, SheetModel } from "../model";
import type { HostObject } from "./host-object";

/** A range's cells as its format and its data validation read and write them. */
export interface RangeCells {
  readonly sheet: SheetModel;
  readonly area: Area;
  eachCell(apply: (cell: Cell) => void): void;
}

/** Makes the Range of one rectangle of the sheet a RangeAreas was found on (its `areas` are Ranges). */
export type RangeAt = (area: Area) => HostObject;
