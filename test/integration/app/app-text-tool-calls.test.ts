// A provider that refuses `tools` with HTTP 400 (as llama.cpp does without a tool-call template):
// the App, in its default auto mode, switches to text markers and completes the same review as
// the native path — same posted review, same check run conclusion and title — and says so.

import { describe, expect, it } from "@jest/globals";
import nock from "nock";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import type { ScriptedProviderOptions, ScriptedTurn } from "../../support/scripted-provider.ts";

const app = useAppScenario();

const MARKER = '<<<LOUPE_CALL name="read_repository_file" id="c1">{"path":"src/service.ts"}>>>';
const FINAL = () => stopTurn(review([finding({ line: 2, severity: "high" })], ["Read the service."]));

async function reviewThrough(script: ScriptedTurn[], provider: ScriptedProviderOptions, delivery: string) {
  const h = await app.start(script, {}, provider);
  const gh = mockReviewStart(app.fx, { app: true });
  mockPublish(gh).createReview(PR, [200, { id: 77 }]);
  await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), delivery);
  await h.drain();
  expectCleanEnd(h, app.provider, [gh]);
  const done = gh.completion();
  return {
    gh,
    posted: gh.reviewsPosted(),
    done,
    output: done.output as { title: string; summary: string; text: string },
    requests: [...app.provider.requests],
  };
}

describe("auto tool calls against a server that refuses tools", () => {
  it("completes the review with text markers: same review and check run as the native path", async () => {
    const native = await reviewThrough(
      [
        {
          body: toolCallsTurn([
            { id: "c1", name: "read_repository_file", arguments: { path: "src/service.ts" } },
          ]),
        },
        { body: FINAL() },
      ],
      {},
      "delivery-native",
    );
    // What afterEach does between tests: the first run's persisted check-run mock must go.
    await app.provider.stop();
    nock.cleanAll();
    const text = await reviewThrough(
      [{ body: stopTurn(`I will read the service first.\n${MARKER}\n`) }, { body: FINAL() }],
      { rejectTools: true },
      "delivery-text",
    );

    // The provider saw: the native request (refused), then two requests without tools.
    expect(text.requests.map((r) => "tools" in (r.body as object))).toEqual([true, false, false]);
    const second = text.requests[2]!.body as { messages: { role: string; content: string }[] };
    const results = second.messages.at(-1)!;
    expect(results.role).toBe("user");
    expect(results.content).toContain('{"call_id":"c1","tool":"read_repository_file","result":{"ok":true');
    expect(results.content).toContain("db.write(record);");

    // Same findings, same review, same conclusion and title.
    expect(text.posted).toEqual(native.posted);
    expect(text.posted[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    expect(text.done.conclusion).toBe(native.done.conclusion);
    expect(text.done.conclusion).toBe("success");
    expect(text.output.title).toBe(native.output.title);
    expect(text.output.summary).toContain("`final_review`");

    // The switch is in the check run's summary and trace; the native run says nothing of markers.
    expect(text.output.summary).toContain(
      "the provider refused a request carrying native tools (HTTP 400/422 naming them), so from round 1 Loupe asked for calls written as text markers",
    );
    expect(text.output.text).toContain("switch_to_text_tool_calls");
    expect(text.output.text).toContain("read_repository_file");
    expect(native.output.summary).not.toContain("text markers");

    // Marker text and the model's prose around it never reach GitHub.
    const published = text.gh.calls.map((c) => JSON.stringify(c.body ?? null)).join("\n");
    expect(published).not.toContain("LOUPE_CALL");
    expect(published).not.toContain("I will read the service first");
  });
});
