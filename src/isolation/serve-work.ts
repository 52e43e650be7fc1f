// Inside a repository worker: the real ports of default-ports.ts, bound here, answering the
// server's calls (protocol.ts). The workspaces this worker fetched stay here, by number, until
// the server disposes of them. Secrets are registered again here, because the redaction registry
// is per thread: the provider's key for the worker's life, an installation token from its fetch
// until its workspace is disposed (or the fetch failed and its error was redacted).

import { parentPort, workerData } from "node:worker_threads";
import { registerSecret } from "../domain/redact.ts";
import { createDefaultPorts } from "../jobs/default-ports.ts";
import { NO_METRICS } from "../metrics/metrics.ts";
import type { ReviewPorts } from "../pipeline/review-ports.ts";
import type { Workspace } from "../workspace/types.ts";
import { gateClient } from "./gate-client.ts";
import {
  arrived,
  type FromWorker,
  type PlainPlan,
  type ToWorker,
  toPlainError,
  type WorkerSetup,
  type WorkRequest,
} from "./protocol.ts";

interface Held {
  readonly workspace: Workspace;
  readonly releaseToken: () => void;
}

type Send = (message: FromWorker) => void;

/** Starts answering calls; `wrap` lets a test put a port of its own around the real ones. */
export function serveRepositoryWork(wrap: (ports: ReviewPorts) => ReviewPorts = (ports) => ports): void {
  const port = parentPort;
  if (port === null) throw new Error("serveRepositoryWork runs only in a worker thread");
  const setup = workerData as WorkerSetup;
  registerSecret(setup.provider.apiKey);
  const send: Send = (message) => port.postMessage(message);
  const gate = gateClient((id, call) => send({ type: "gate", id, call }));
  const ports = wrap(
    createDefaultPorts({
      provider: setup.provider,
      limits: setup.limits,
      replyLimits: setup.replyLimits,
      includeTrace: setup.includeTrace,
      tmpRoot: setup.tmpRoot,
      gate: gate.gate,
      // The server's metrics live in its thread: each tool call and provider error is told to it.
      metrics: {
        ...NO_METRICS,
        toolCall: (tool, ok) => send({ type: "tool_call", tool, ok }),
        dependencyError: (dependency, kind) => send({ type: "dependency_error", dependency, kind }),
      },
    }),
  );
  const held = new Map<number, Held>();
  const running = new Map<number, AbortController>();
  let nextWorkspace = 1;
  const work = { ports, held, send, nextWorkspace: () => nextWorkspace++ };
  port.on("message", (message: ToWorker) => {
    if (message.type === "gate") return gate.receive(message.id, message.news);
    if (message.type === "cancel") {
      running.get(message.call)?.abort();
      return;
    }
    const controller = new AbortController();
    running.set(message.call, controller);
    void answer(work, message.call, message.request, controller.signal).then((reply) => {
      running.delete(message.call);
      send(reply);
    });
  });
  // Its modules are loaded by now (the costly part of a worker's start): the pool's warm-up waits for this.
  send({ type: "ready" });
}

interface Work {
  readonly ports: ReviewPorts;
  readonly held: Map<number, Held>;
  readonly send: Send;
  readonly nextWorkspace: () => number;
}

/** One call, to its answer: done with a value, or failed with the error as data. */
async function answer(
  work: Work,
  call: number,
  request: WorkRequest,
  signal: AbortSignal,
): Promise<FromWorker> {
  let releaseToken = (): void => {};
  try {
    if (request.kind === "fetch") releaseToken = registerSecret(request.input.token);
    const value = await perform(work, call, request, signal, releaseToken);
    return { type: "done", call, value };
  } catch (error) {
    // Redacted while the fetch's token is still registered, then forgotten.
    const plain = toPlainError(error);
    if (request.kind === "fetch") releaseToken();
    return { type: "failed", call, error: plain };
  }
}

async function perform(
  work: Work,
  call: number,
  request: WorkRequest,
  signal: AbortSignal,
  releaseToken: () => void,
): Promise<unknown> {
  const { ports, held } = work;
  const view = (id: number): Workspace => {
    const found = held.get(id);
    if (found === undefined) throw new Error(`no workspace ${id} in this worker`);
    return found.workspace;
  };
  switch (request.kind) {
    case "fetch": {
      const workspace = await ports.fetchWorkspace({ ...request.input, signal });
      const id = work.nextWorkspace();
      held.set(id, { workspace, releaseToken });
      return id;
    }
    case "review_loop":
      return await ports.runLoop({
        ...arrived(request.input),
        view: view(request.workspace),
        signal,
        onRound: (progress) => work.send({ type: "round", call, progress }),
      });
    case "reply_loop":
      return await ports.runReplyLoop({ ...arrived(request.input), view: view(request.workspace), signal });
    case "verify_loop":
      return await ports.verifyFinding({ ...arrived(request.input), view: view(request.workspace), signal });
    case "plan": {
      const { allInBody, ...plan } = await ports.planReview({
        ...request.input,
        view: view(request.workspace),
      });
      return { ...plan, allInBodyText: allInBody() } satisfies PlainPlan;
    }
    case "dispose": {
      const found = held.get(request.workspace);
      held.delete(request.workspace);
      try {
        await found?.workspace.dispose();
      } finally {
        found?.releaseToken();
      }
      return null;
    }
  }
}
