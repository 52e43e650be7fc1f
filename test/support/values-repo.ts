// The change many end-to-end worlds review, in one place: `src/values.ts` holds thirty constants,
// each equal to its index (`export const v7 = 7;`), and branch `change-v10` sets v10 to 100. A
// reviewer finds one thing in it, on a line the diff shows, and the finding's words are the same in
// every world that scripts it (the App, the Action, GitLab, the fleet).

import { createRepo, type FixtureRepo } from "./git-fixture.ts";

export const VALUES_PATH = "src/values.ts";
export const VALUES_BRANCH = "change-v10";

/** `export const vN = N;` for N from 1 to `count`. */
export const valueLines = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `export const v${i + 1} = ${i + 1};`);

/** `src/values.ts` on main. */
export const VALUES = `${valueLines(30).join("\n")}\n`;
/** `src/values.ts` on `change-v10`: v10 is 100. */
export const VALUES_V10_IS_100 = VALUES.replace("v10 = 10;", "v10 = 100;");

/**
 * The repository: main with `src/values.ts` (and `baseFiles`, e.g. a `.gitlab/loupe.yml`, in the
 * same commit), branch `change-v10` one commit ahead with v10 set to 100, main checked out.
 */
export function createValuesRepo(baseFiles: Readonly<Record<string, string>> = {}): FixtureRepo {
  const fixture = createRepo();
  fixture.write(VALUES_PATH, VALUES);
  for (const [file, text] of Object.entries(baseFiles)) fixture.write(file, text);
  fixture.commit("values");
  fixture.branch(VALUES_BRANCH);
  fixture.write(VALUES_PATH, VALUES_V10_IS_100);
  fixture.commit("v10 is 100");
  fixture.checkout("main");
  return fixture;
}

export const V10_TITLE = "v10 no longer equals its name";

/** The finding as a model writes it in its final review. */
export const v10Finding = (severity: "high" | "medium" = "medium") => ({
  severity,
  title: V10_TITLE,
  explanation: "The constant v10 is now 100 while every other constant equals its index.",
  path: VALUES_PATH,
  line: 10,
  evidence: "export const v10 = 100;",
  recommendation: "Restore 10 or rename the constant.",
});

/** A final review of the change that reports the one finding. */
export const v10Review = (severity: "high" | "medium" = "medium") => ({
  summary: "One constant changed its value.",
  findings: [v10Finding(severity)],
  notes: [] as string[],
});
