import { describe, expect, it } from "@jest/globals";
import {
  claimSimilarity,
  extractIdentities,
  findingIdentity,
  identityMarker,
  sameClaimElsewhere,
  sameFinding,
} from "../../../src/review/finding-identity.ts";
import { type LedgerEntry, matchLedger } from "../../../src/review/ledger.ts";

const CODE = "const user = findUser(id);\nreturn user.name;";
const nullDeref = findingIdentity({
  path: "src/a.ts",
  code: CODE,
  title: "Unchecked null dereference of user",
  explanation: "findUser returns null when the id is unknown, and user.name then throws a TypeError.",
});

describe("a finding's identity", () => {
  it("is the same finding when the model rewords the title and the explanation", () => {
    const reworded = findingIdentity({
      path: "src/a.ts",
      code: CODE,
      title: "Possible null pointer dereference on `user`",
      explanation: "When the id is unknown findUser returns null; reading user.name throws a TypeError.",
    });
    expect(sameFinding(nullDeref, reworded)).toBe(true);
  });

  it("ignores indentation, blank lines and line numbers (the code is what is compared)", () => {
    const moved = findingIdentity({
      path: "src/a.ts",
      code: "const user = findUser(id);\nreturn user.name;",
      title: "Null dereference of user",
      explanation: "findUser returns null when the id is unknown, and user.name throws.",
    });
    expect(moved.code).toBe(nullDeref.code);
    expect(sameFinding(nullDeref, moved)).toBe(true);
  });

  it("is another finding when it makes another claim on the same code", () => {
    const other = findingIdentity({
      path: "src/a.ts",
      code: CODE,
      title: "Timing attack in comparison of secrets",
      explanation: "Comparing tokens with === leaks their length through timing; use timingSafeEqual.",
    });
    expect(other.code).toBe(nullDeref.code);
    expect(sameFinding(nullDeref, other)).toBe(false);
  });

  it("is another finding on other code or in another file", () => {
    const words = { title: "Unchecked null dereference of user", explanation: "findUser returns null." };
    const elsewhere = findingIdentity({ path: "src/a.ts", code: "return account.owner;", ...words });
    const otherFile = findingIdentity({ path: "src/b.ts", code: CODE, ...words });
    expect(sameFinding(nullDeref, elsewhere)).toBe(false);
    expect(sameFinding(nullDeref, otherFile)).toBe(false);
    expect(sameClaimElsewhere(nullDeref, elsewhere)).toBe(true);
    expect(sameClaimElsewhere(nullDeref, otherFile)).toBe(false);
  });

  it("estimates Jaccard exactly for small sets", () => {
    expect(claimSimilarity(["000001", "000002"], ["000002", "000003"])).toBeCloseTo(1 / 3);
    expect(claimSimilarity([], [])).toBe(1);
  });

  it("round-trips through its hidden marker, and a malformed marker is ignored", () => {
    const marker = identityMarker(nullDeref);
    expect(extractIdentities(`text ${marker} more`)).toEqual([nullDeref]);
    expect(extractIdentities(marker.replace("code=", "code=z"))).toEqual([]);
    expect(extractIdentities(marker.replace(" -->", "<script> -->"))).toEqual([]);
    expect(extractIdentities(marker.repeat(5), 2)).toHaveLength(2);
    expect(() => identityMarker({ ...nullDeref, claim: ["--> x"] })).toThrow(TypeError);
  });
});

describe("matching the ledger", () => {
  const entry = (status: LedgerEntry["status"]): LedgerEntry => ({
    identity: nullDeref,
    fingerprint: "0123456789abcdef",
    status,
    title: "t",
    path: "src/a.ts",
    line: 3,
    dismissal: null,
  });

  it("knows an open or dismissed finding, and posts a fixed one again on the same code", () => {
    expect(matchLedger(nullDeref, [entry("open")]).kind).toBe("known");
    expect(matchLedger(nullDeref, [entry("dismissed")]).kind).toBe("known");
    expect(matchLedger(nullDeref, [entry("withdrawn")]).kind).toBe("known");
    expect(matchLedger(nullDeref, [entry("fixed")]).kind).toBe("new");
  });

  it("says a dismissed finding is raised again when its code changed", () => {
    const changed = findingIdentity({
      path: "src/a.ts",
      code: "const user = findUser(id, { cache: true });\nreturn user.name;",
      title: "Unchecked null dereference of user",
      explanation: "findUser returns null when the id is unknown, and user.name then throws a TypeError.",
    });
    expect(matchLedger(changed, [entry("dismissed")]).kind).toBe("raised_again");
    expect(matchLedger(changed, [entry("open")]).kind).toBe("new");
  });
});
