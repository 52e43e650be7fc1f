// The organisation's settings on GitLab, through Loupe as a real server process serving GitLab
// alone against the fake GitLab: GITLAB_CONFIG_PROJECT names the project whose `.gitlab/loupe.yml`
// (read from its default branch) is every project's organisation layer. Its locked `fail_on`
// holds against the project's own `fail_on: none`, the summary note lists the layers, and a broken
// organisation file is one clear failed status whose note names the file and the key.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { stopTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { mergeRequestEvent } from "../../support/gitlab-webhooks.ts";
import { type GitLabWorld, startGitLabWorld } from "../../support/gitlab-world.ts";

const SETTINGS_PROJECT = "acme/loupe-settings";
const FINDING = {
  severity: "medium",
  title: "`a` is a hard-coded constant",
  explanation: "The value 2 has no name, so the next reader cannot tell where it comes from.",
  path: "src/a.ts",
  line: 1,
  evidence: "export const a = 2;",
  recommendation: "Name the value or document where it comes from.",
};

let world: GitLabWorld;
let settings: FixtureRepo;

/** The project: its own `.gitlab/loupe.yml` says `fail_on: none`; branch `change` sets `a` to 2. */
function createProject(): FixtureRepo {
  const repo = createRepo();
  repo.write("src/a.ts", "export const a = 1;\n");
  repo.write(".gitlab/loupe.yml", "fail_on: none\nmax_findings: 10\n");
  repo.commit("a");
  repo.branch("change", "main");
  repo.write("src/a.ts", "export const a = 2;\n");
  repo.commit("a is 2");
  repo.checkout("main");
  return repo;
}

beforeAll(async () => {
  world = await startGitLabWorld({
    name: "orgconf",
    project: "acme/app",
    fixture: createProject,
    script: [{ body: stopTurn({ summary: "One constant changed.", findings: [FINDING], notes: [] }) }],
    extra: { GITLAB_CONFIG_PROJECT: SETTINGS_PROJECT },
  });
  settings = createRepo();
  settings.write(".gitlab/loupe.yml", "fail_on: medium\nlocked: [fail_on]\n");
  settings.commit("the organisation's settings");
  // A merge request's branch of the settings project is never read: only its default branch.
  settings.branch("proposal", "main");
  settings.write(".gitlab/loupe.yml", "fail_on: none\n");
  settings.commit("a proposal");
  settings.checkout("main");
  world.gitlab.addProject({ path: SETTINGS_PROJECT, source: settings });
}, 60_000);

afterAll(async () => {
  await world?.stop();
  settings?.dispose();
});

async function review(iid: number) {
  const { gitlab, hook, loupe } = world;
  const mr = gitlab.addMergeRequest({ project: "acme/app", iid, sourceBranch: "change" });
  const head = mr.diffRefs.head_sha;
  const attempt = await hook.deliver(
    mergeRequestEvent({ project: "acme/app", iid, headSha: head, action: "open" }),
  );
  expect(attempt.result).toBe(200);
  const status = await loupe.until(
    () => gitlab.statuses.find((s) => s.sha === head && s.status !== "pending" && s.description?.length),
    `the final status of !${iid}`,
  );
  const note = await loupe.until(
    () => gitlab.notes.find((n) => n.iid === iid && n.body.startsWith("<!-- loupe:summary -->")),
    `the summary note of !${iid}`,
  );
  return { status, note: note.body };
}

describe("the organisation's settings on GitLab", () => {
  it("the settings project's locked fail_on holds against the project's own, and the note lists the layers", async () => {
    const { status, note } = await review(1);
    expect(status.status).toBe("failed");
    expect(note).toContain("### Settings");
    expect(note).toMatch(
      /\| organisation \| acme\/loupe-settings: \.gitlab\/loupe\.yml on its default branch \| `fail_on`, `locked` \|/,
    );
    expect(note).toMatch(
      /\| repository \| \.gitlab\/loupe\.yml on the default branch \| `max_findings` \| `fail_on` \(locked by the organisation\) \|/,
    );
    const reads = world.gitlab.requests.filter((r) =>
      r.url.includes("acme%2Floupe-settings/repository/files"),
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => new URL(r.url, world.gitlab.url).searchParams.get("ref") === "main")).toBe(
      true,
    );
  });

  it("a broken organisation file is one failed status whose note names the file and the key", async () => {
    settings.write(".gitlab/loupe.yml", "fail_on: huge\n");
    settings.commit("a typo");
    world.gitlab.pushBranch(SETTINGS_PROJECT, settings, "main");
    const asked = world.provider.requests.length;
    const { status, note } = await review(2);
    expect(status.status).toBe("failed");
    expect(note).toContain("`acme/loupe-settings: .gitlab/loupe.yml on its default branch`");
    expect(note).toContain(
      "organisation's file: `fail_on`: must be one of critical, high, medium, low, info, none",
    );
    expect(world.provider.requests.length).toBe(asked);
  });
});
