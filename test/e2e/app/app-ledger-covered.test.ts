// A fixed finding resolved through Loupe as a real server process, in a pull request that also holds
// files a review covers by design: an image (binary, shown to the model only as a description), a
// lockfile (left out by the default paths rules) and a generated file (marked in the base's
// .gitattributes). The first review posts two findings; a reader replies in the second thread and
// nobody answers; a push changes both flagged lines and the model raises nothing. The thread of the
// first is resolved and its finding counted fixed; the second, with a person's unanswered reply, is
// left open for the conversation. None of those files makes the review incomplete.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import { pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { createRepo } from "../../support/git-fixture.ts";
import { type ServerWorld, startServerWorld } from "../../support/server-world.ts";
import { deliverWebhook } from "../../support/webhook-delivery.ts";

const REPO = "covered";
const lines = (n: number, edit: (line: string) => string = (l) => l) =>
  `${Array.from({ length: n }, (_, i) => edit(`export const v${i + 1} = ${i + 1};`)).join("\n")}\n`;
const finding = (line: number) => ({
  severity: "medium",
  title: `v${line} no longer equals its name`,
  explanation: `The constant v${line} is now ${line * 10} while every other constant equals its index.`,
  path: "src/values.ts",
  line,
  evidence: `export const v${line} = ${line * 10};`,
  recommendation: "Restore the value or rename the constant.",
});
/** A PNG's first bytes, a NUL among them: git and GitHub see a binary file with no text diff. */
const png = (seed: number) =>
  Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, seed, seed + 1, 0, 0xff]);

let world: ServerWorld;

beforeAll(async () => {
  world = await startServerWorld({
    name: "ledger-covered",
    repo: REPO,
    collaborators: { octocat: "write", reader: "read" },
    script: [{ body: stopTurn(review([finding(10), finding(20)])) }, { body: stopTurn(review([])) }],
    fixture: () => {
      const repo = createRepo();
      repo.write(".gitattributes", "src/generated/** linguist-generated=true\n");
      repo.write("src/values.ts", lines(30));
      repo.write("package-lock.json", '{"lockfileVersion": 3, "packages": {}}\n');
      repo.write("src/generated/schema.ts", "export const schema = {};\n");
      repo.write("docs/logo.png", png(1));
      repo.commit("base");
      repo.branch("change", "main");
      repo.write(
        "src/values.ts",
        lines(30, (l) => l.replace(/^(export const v(10|20) = )\d+;$/, "$1$20;")),
      );
      repo.write("package-lock.json", '{"lockfileVersion": 3, "packages": {"": {"name": "covered"}}}\n');
      repo.write("src/generated/schema.ts", "export const schema = { version: 2 };\n");
      repo.write("docs/logo.png", png(7));
      repo.commit("values, data and a new logo");
      repo.checkout("main");
      return repo;
    },
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

const target = () => ({
  owner: "octo",
  repo: REPO,
  defaultBranch: "main",
  installationId: 1,
  htmlBase: world.github.url,
});

const completed = () =>
  world.github.checkRuns.filter(
    (r) =>
      r.repo === REPO && r.externalId === formatExternalId(1) && r.history.at(-1)?.status === "completed",
  );

async function reviewed(action: string) {
  const before = completed().length;
  const pr = world.github.addPullRequest({ owner: "octo", repo: REPO, number: 1, headRef: "change" });
  const response = await deliverWebhook({
    url: world.loupe.webhookUrl,
    event: "pull_request",
    payload: pullRequestEvent(action, target(), pr),
    secret: world.secret,
  });
  expect(response.status).toBe(200);
  const run = await world.loupe.until(() => completed()[before], `check run ${before + 1}`);
  return run.history.at(-1)!.output!;
}

describe("a fixed finding in a pull request with an image, a lockfile and a generated file", () => {
  it("is resolved and counted fixed; a thread with a person's unanswered reply stays open", async () => {
    const first = await reviewed("opened");
    expect(first.title).toBe("Loupe: 2 findings (2 medium)");
    // The coverage names what was left out by design, and none of it counts as a cut.
    expect(first.summary).toContain("`docs/logo.png`");
    expect(first.summary).toContain("`src/generated/schema.ts`");
    expect(first.title).not.toMatch(/files reviewed/);
    const comments = world.github.reviews.filter((r) => r.repo === REPO).flatMap((r) => r.comments);
    expect(comments.map((c) => c.line)).toEqual([10, 20]);
    const [fixedRoot, repliedRoot] = comments;

    world.github.addPersonReply({
      owner: "octo",
      repo: REPO,
      pullNumber: 1,
      rootId: repliedRoot!.id,
      login: "reader",
      body: "Is 200 not what the spec says?",
    });
    world.fixture.checkout("change");
    world.fixture.write(
      "src/values.ts",
      lines(30, (l) => l.replace(/^(export const v(10|20) = \d+;)$/, "$1 // as named")),
    );
    world.fixture.commit("v10 and v20 say why");
    world.github.pushBranch("octo", REPO, world.fixture, "change");
    world.fixture.checkout("main");
    const second = await reviewed("synchronize");

    expect(second.summary).toContain("Resolved 1 of Loupe's earlier thread");
    expect(second.summary).toContain(
      "Finding ledger: 0 new this review, 1 still open, 1 fixed, 0 withdrawn, 0 dismissed.",
    );
    expect(world.github.resolvedThreads.has(fixedRoot!.id)).toBe(true);
    expect(world.github.resolvedThreads.has(repliedRoot!.id)).toBe(false);
    expect(world.github.resolvedThreads.size).toBe(1);
  }, 120_000);
});
