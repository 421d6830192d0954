// The runtime's table of what differs by protocol revision: released revisions answer from
// the table, and a revision it does not list (a later date, `draft`, a date between two
// releases) behaves as the newest released revision at or before it. The generator, which
// does not depend on the runtime package, keeps the released revisions in schema/revisions.json
// and its own checks by revision: both must agree.
import { describe, expect, it } from "vitest";
import * as generator from "../../generator/load/revisions.js";
import {
  allowsBatches,
  eraOf,
  hasExperimentalTasks,
  hasRootsListChanged,
  hasStructuredContent,
  isModern,
  releasedBehaviourOf,
  releasedRevisions,
  resourceNotFoundCode,
  revisionsWithBatches,
} from "../../runtime/mcp/revisions.js";

describe("runtime revision table", () => {
  it.each([
    ["2024-11-05", "2024-11-05"],
    ["2026-07-28", "2026-07-28"],
    ["2027-01-15", "2026-07-28"],
    ["draft", "2026-07-28"],
    ["2025-07-01", "2025-06-18"],
    ["2024-01-01", "2024-11-05"],
  ])("%s behaves as %s, in the runtime and in the generator", (revision, released) => {
    expect(releasedBehaviourOf(revision)).toBe(released);
    expect(generator.releasedBehaviourOf(revision)).toBe(released);
    expect(generator.eraOf(revision)).toBe(eraOf(revision));
  });

  it("the generator and the runtime know the same released revisions, eras and batches", () => {
    expect([...generator.knownRevisions().keys()].reverse()).toEqual(releasedRevisions);
    expect([...generator.knownRevisions()].map(([revision, facts]) => [revision, facts.era])).toEqual(
      [...generator.knownRevisions().keys()].map((r) => [r, eraOf(r)]),
    );
    expect(generator.revisionFeatures.batches).toEqual(revisionsWithBatches);
  });

  it("a later revision is of the newest era and inherits its behaviour, not what that revision dropped", () => {
    for (const revision of ["2027-01-15", "draft"]) {
      expect([eraOf(revision), isModern(revision)]).toEqual(["modern", true]);
      expect(resourceNotFoundCode(revision)).toBe(-32602);
      expect(hasStructuredContent(revision)).toBe(true);
      expect([allowsBatches(revision), hasExperimentalTasks(revision), hasRootsListChanged(revision)]).toEqual([
        false,
        false,
        false,
      ]);
    }
  });

  it("ranges that end are kept by the revisions inside them only", () => {
    expect([
      allowsBatches("2025-03-26"),
      allowsBatches("2025-04-01"),
      allowsBatches("2025-06-18"),
      allowsBatches(undefined),
    ]).toEqual([true, true, false, false]);
    expect([hasExperimentalTasks("2025-11-25"), hasExperimentalTasks("2026-07-28")]).toEqual([true, false]);
    expect([eraOf("2025-11-25"), resourceNotFoundCode("2025-11-25")]).toEqual(["legacy", -32002]);
  });
});
