/**
 * What the tests read of the resource modules' declarations, by kind: each module's own parameters, and whether
 * Sync states tracks it. The add-in asks the registry (src/sheets/resources/index.ts) for a query's module and
 * never for these by kind, so they live here, read from the same four modules the registry holds.
 */
import { allowances } from "../../src/sheets/resources/allowances";
import { cards } from "../../src/sheets/resources/cards";
import { expenses } from "../../src/sheets/resources/expenses";
import { movements } from "../../src/sheets/resources/movements";
import type { ParamDecl, ResourceKind } from "../../src/sheets/resources";

const MODULES: Record<ResourceKind, { params: readonly ParamDecl[]; tracked?: unknown }> = { expenses, allowances, cards, movements };

/** A kind's parameters as its module declares them. */
export const declaredParams = (kind: ResourceKind): readonly ParamDecl[] => MODULES[kind].params;

/** Allowances and expenses carry the editable columns that Sync states sends. */
export const isTracked = (kind: ResourceKind): boolean => MODULES[kind].tracked !== undefined;
