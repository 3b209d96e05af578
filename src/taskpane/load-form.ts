/**
 * The Load form's controls, each built from a parameter's declaration in its resource's module
 * (sheets/resources/params.ts): an id is its picker, a choice or a yes/no a list, a date a date box, an expand
 * the boxes of its values. No field is written here by name: a parameter declared for the form is shown, read
 * and refused when a required one is empty, with its declared label.
 */
import { InvalidRequestError } from "../api";
import { RESOURCE_KINDS, formOf, Query, type ParamDecl, type PickerKey, type ResourceKind } from "../sheets";
import { field, h, select, setChildren } from "./dom";
import type { Pickers } from "./pickers";

type Control = HTMLInputElement | HTMLSelectElement;

/** One parameter's control in its labelled field (the element shown or hidden). */
interface FormControl {
  element: HTMLElement;
  control: Control;
  /** The declaration whose values a list shows now (the State list's differ between expenses and allowances). */
  shown?: ParamDecl;
}

export interface LoadForm {
  resource: HTMLSelectElement;
  expandBox: HTMLFieldSetElement;
  /** Every resource's form controls by element id, in the order first declared: one State list serves two resources. */
  controls: Map<string, FormControl>;
}

/** The chosen resource (the list holds only the registry's kinds). */
export const kindOf = (resource: HTMLSelectElement): ResourceKind => RESOURCE_KINDS.find((kind) => kind === resource.value) ?? RESOURCE_KINDS[0];

/** Whether a kind's form asks for a card (the cards list is fetched for its picker). */
export const asksForCard = (kind: ResourceKind): boolean => formOf(kind).fields.some((p) => p.type === "id" && p.picker === "card");

/** A list's options: none ("(any)"), then each value as its declaration names it. */
function optionsOf(p: ParamDecl): [values: string[], labels: Record<string, string>] {
  if (p.type === "boolean") return [["", "true", "false"], { "": "(any)", ...(p.display ?? { true: "true", false: "false" }) }];
  if (p.type === "choice") return [["", ...p.values], p.display];
  return [[], {}];
}

/** An id's field: its picker, what it chose, the picker's note and the declared hint under it. */
function pickerField(p: Extract<ParamDecl, { type: "id" }>, pickers: Pickers): FormControl {
  const picker = pickers[p.picker];
  const notes: Partial<Record<PickerKey, HTMLElement>> = { card: pickers.cardNote };
  const extras = [notes[p.picker], p.form?.hint ? h("div", { className: "hint" }, p.form.hint) : null].filter((e): e is HTMLElement => e !== null && e !== undefined);
  const hint = extras.length ? h("div", {}, picker.chosen, ...extras) : picker.chosen;
  return { element: field(p.label, picker.element, hint, picker.input), control: picker.input };
}

function controlOf(p: ParamDecl, pickers: Pickers): FormControl {
  const id = p.form?.control ?? p.name;
  if (p.type === "id") return pickerField(p, pickers);
  const control = p.type === "date" ? h("input", { id, type: "date" }) : select(id, ...optionsOf(p));
  return { element: field(p.label, control), control };
}

/** The form's controls: the resource list, one field per declared control, and the expand boxes. */
export function loadForm(pickers: Pickers): LoadForm {
  const labels = Object.fromEntries(RESOURCE_KINDS.map((kind) => [kind, formOf(kind).label]));
  const controls = new Map<string, FormControl>();
  for (const p of RESOURCE_KINDS.flatMap((kind) => formOf(kind).fields)) {
    const id = p.form?.control ?? p.name;
    if (!controls.has(id)) controls.set(id, controlOf(p, pickers));
  }
  return { resource: select("resource", RESOURCE_KINDS, labels), expandBox: h("fieldset", { className: "expand" }), controls };
}

/** Shows the chosen resource's fields (each list with its declaration's values) and its expand boxes. */
export function renderForm(form: LoadForm): void {
  const spec = formOf(kindOf(form.resource));
  const shown = new Map(spec.fields.map((p) => [p.form?.control ?? p.name, p]));
  for (const [id, c] of form.controls) {
    const p = shown.get(id);
    c.element.hidden = !p;
    // A list's options are set again only when another declaration is shown: a choice made stays while it applies.
    if (p && c.shown !== p && (p.type === "choice" || p.type === "boolean")) {
      const [values, labels] = optionsOf(p);
      setChildren(c.control, ...values.map((v) => h("option", { value: v }, labels[v] ?? (v || "(any)"))));
      c.shown = p;
    }
  }
  // Ticked by default: people, cost centers, categories and card holders show their names (their ids stay in columns of their own).
  const expand = spec.expand;
  setChildren(form.expandBox, h("legend", {}, expand ? expand.label : (spec.noExpand ?? "")),
    ...(expand?.values ?? []).map((v) => h("label", { className: "check" }, h("input", { type: "checkbox", value: v, name: "expand", checked: true }), ` ${expand?.display[v] ?? v}`)));
}

/** A control's text as its parameter's value: empty is absent; a yes/no is a boolean. */
const valueOf = (p: ParamDecl, text: string): unknown => (text === "" ? undefined : p.type === "boolean" ? text === "true" : text);

/** The form's values as a query, parsed once here; a required id left empty is refused in the form's words. */
export function formQuery(form: LoadForm, enterpriseId: string): Query {
  const kind = kindOf(form.resource);
  const spec = formOf(kind);
  const values: Record<string, unknown> = { resource: kind, enterpriseId };
  for (const p of spec.fields) {
    const raw = form.controls.get(p.form?.control ?? p.name)!.control.value;
    const required = p.type === "id" && p.required;
    const text = required ? raw.trim() : raw;
    if (!text && required) throw new InvalidRequestError(`${p.label} is required for ${spec.label.toLowerCase()}.`);
    values[p.name] = valueOf(p, text);
  }
  if (spec.expand) values[spec.expand.name] = Array.from(form.expandBox.querySelectorAll<HTMLInputElement>("input:checked")).map((i) => i.value);
  // The form's values are strings; the schema makes them the parameters' types (they come from its own lists).
  return Query.parse(values);
}
