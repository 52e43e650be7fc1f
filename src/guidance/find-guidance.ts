// Which guidance files a repository has: AGENTS.md and CLAUDE.md at the root,
// .github/copilot-instructions.md, .github/instructions/*.instructions.md (in name order, at most
// 20), the files `.github/loupe.yml` names, then AGENTS.md and CLAUDE.md in the directories of
// the changed files (find-nested.ts). Two directory listings find the usual ones, and one more
// for each directory of changed files that the default branch has (at most 24).

import { agentFilesIn, findNestedGuidance } from "./find-nested.ts";
import type { Candidate, GuidanceSkip, GuidanceSource } from "./types.ts";
import { GUIDANCE_LIMITS } from "./types.ts";

export async function findGuidance(
  source: GuidanceSource,
  configured: readonly string[],
  changedFiles: readonly string[],
): Promise<{ candidates: Candidate[]; skipped: GuidanceSkip[] }> {
  const candidates: Candidate[] = [];
  const skipped: GuidanceSkip[] = [];
  const list = async (dir: string) => {
    try {
      return await source.list(dir);
    } catch {
      skipped.push({ path: dir === "" ? "(root)" : `${dir}/`, reason: "could not be listed" });
      return [];
    }
  };
  const root = await list("");
  candidates.push(...agentFilesIn("", root));
  const github = root.some((e) => e.name === ".github" && e.type === "dir") ? await list(".github") : [];
  if (github.some((e) => e.name === "copilot-instructions.md" && e.type === "file")) {
    candidates.push({ path: ".github/copilot-instructions.md", kind: "copilot" });
  }
  if (github.some((e) => e.name === "instructions" && e.type === "dir")) {
    const names = (await list(".github/instructions"))
      .filter((e) => e.type === "file" && e.name.endsWith(".instructions.md"))
      .map((e) => e.name)
      .sort();
    for (const name of names.slice(0, GUIDANCE_LIMITS.instructionFiles)) {
      candidates.push({ path: `.github/instructions/${name}`, kind: "instructions" });
    }
    const more = names.length - GUIDANCE_LIMITS.instructionFiles;
    if (more > 0) {
      skipped.push({
        path: ".github/instructions/",
        reason: `${more} more instruction file${more === 1 ? "" : "s"} not read (at most ${GUIDANCE_LIMITS.instructionFiles}, in name order)`,
      });
    }
  }
  for (const path of configured) {
    if (!candidates.some((c) => c.path === path)) candidates.push({ path, kind: "configured" });
  }
  for (const nested of await findNestedGuidance(list, root, changedFiles, skipped)) {
    if (!candidates.some((c) => c.path === nested.path)) candidates.push(nested);
  }
  return { candidates, skipped };
}
