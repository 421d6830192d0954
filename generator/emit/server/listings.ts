// The list results the server answers with, one table per served revision (each projected
// onto that revision's types), written so that a reviewer reads each entry once: revisions
// whose tables are identical share one, and an entry (a tool, resource, template or
// prompt) that several distinct tables hold alike is a constant of its own that they name.
import type { Revision } from "../../load/revisions.js";
import { revisionNamespace } from "../../model/protocol.js";
import type { ServerModel } from "../../model/types.js";
import { Verbatim, codeLiteral, sameLiteral } from "../escape.js";
import type { GeneratedFile } from "../file.js";
import { inParts } from "./array-parts.js";

/** One revision's list results, as emit.ts projects them (entries in the model's order). */
export interface ListingValue {
  readonly tools: readonly unknown[];
  readonly resources: readonly unknown[];
  readonly resourceTemplates: readonly unknown[];
  readonly prompts: readonly unknown[];
}

export interface RevisionListing {
  readonly revision: Revision;
  readonly listing: ListingValue;
}

type ListName = keyof ListingValue;
const lists: readonly ListName[] = ["tools", "resources", "resourceTemplates", "prompts"];

/** A table to write, named after the first revision that has it. */
interface Table {
  readonly name: string;
  readonly revisions: Revision[];
  readonly listing: ListingValue;
}

/** An entry constant: its value, and the name the tables use. */
interface SharedEntry {
  readonly value: unknown;
  readonly name: string;
}

/**
 * Writes the tables (entries shared between distinct tables first) and returns the name of
 * each revision's table. `listingType` is the imported name of the runtime's Listing type.
 */
export function writeListings(
  file: GeneratedFile,
  model: ServerModel,
  listings: readonly RevisionListing[],
  listingType: string,
): Map<Revision, string> {
  const tables: Table[] = [];
  const tableOf = new Map<Revision, string>();
  for (const { revision, listing } of listings) {
    let table = tables.find((written) => sameLiteral(written.listing, listing));
    if (!table) {
      table = { name: `listing${revisionNamespace(revision).slice(1)}`, revisions: [], listing };
      tables.push(table);
    }
    table.revisions.push(revision);
    tableOf.set(revision, table.name);
  }
  const entryNames = entryNamesOf(model);
  const shared = tables.length > 1 ? sharedEntries(tables, entryNames) : new Map<ListName, SharedEntry[][]>();
  const w = file.writer;
  if ([...shared.values()].some((entries) => entries.some((forms) => forms.length > 0))) {
    w.line("// Entries the tables of several revisions hold alike, written once.");
  }
  for (const entries of shared.values()) {
    for (const entry of entries.flat()) w.line(`const ${entry.name} = ${codeLiteral(entry.value)};`).line();
  }
  for (const table of tables) {
    const value = Object.fromEntries(
      lists.map((list) => {
        const entries = table.listing[list].map((entry, i) => named(shared.get(list)?.[i], entry) ?? entry);
        return [
          list,
          inParts(
            w,
            `${table.name}${list.charAt(0).toUpperCase()}${list.slice(1)}`,
            `${listingType}["${list}"]`,
            entries,
          ),
        ];
      }),
    );
    w.doc(`List results${listings.length > 1 ? ` for protocol ${table.revisions[0]}` : ""}, projected onto its types.`);
    w.line(`const ${table.name}: ${listingType} = ${codeLiteral(value)};`).line();
  }
  return tableOf;
}

/** The constant `entry` is written as, if it is shared. */
function named(candidates: readonly SharedEntry[] | undefined, entry: unknown): Verbatim | undefined {
  const match = candidates?.find((candidate) => sameLiteral(candidate.value, entry));
  return match && new Verbatim(match.name);
}

/**
 * The entries that two or more tables hold alike, by list and position: named after the
 * declaration (`addNoteTool`), a second form of the same entry after the first table
 * that has it (`addNoteTool2025_03_26`). Entries without a name (apps) are not shared.
 */
function sharedEntries(
  tables: readonly Table[],
  entryNames: Record<ListName, readonly (string | undefined)[]>,
): Map<ListName, SharedEntry[][]> {
  const shared = new Map<ListName, SharedEntry[][]>();
  for (const list of lists) {
    const positions = entryNames[list].map((base, i) => {
      const forms: SharedEntry[] = [];
      if (base === undefined) return forms;
      for (const [t, table] of tables.entries()) {
        const entry = table.listing[list][i];
        if (entry === undefined || forms.some((form) => sameLiteral(form.value, entry))) continue;
        if (!tables.slice(t + 1).some((other) => sameLiteral(other.listing[list][i], entry))) continue;
        forms.push({
          value: entry,
          name: forms.length === 0 ? base : `${base}${revisionNamespace(table.revisions[0]!).slice(1)}`,
        });
      }
      return forms;
    });
    shared.set(list, positions);
  }
  return shared;
}

/** The base name of each entry's constant, in the order emit.ts lists them (apps after resources have none). */
function entryNamesOf(model: ServerModel): Record<ListName, readonly (string | undefined)[]> {
  return {
    tools: model.tools.map((tool) => `${tool.member}Tool`),
    resources: [...model.resources.map((resource) => `${resource.member}Resource`), ...model.apps.map(() => undefined)],
    resourceTemplates: model.resourceTemplates.map((template) => `${template.member}ResourceTemplate`),
    prompts: model.prompts.map((prompt) => `${prompt.member}Prompt`),
  };
}
