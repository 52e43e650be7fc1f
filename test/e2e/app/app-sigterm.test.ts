// SIGTERM reaches Loupe's server however the operator starts it: `npm start` (the README's
// production command), `node_modules/.bin/node src/server.ts`, and the Dockerfile's CMD (the same
// command, in exec form, so the container's SIGTERM goes to Node itself). The signal goes to the
// process the operator started, not to its process group; the server must log its graceful
// shutdown, and no process of the group may be left. (`loupe`, the CLI, does not start the server.)

import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import {
  fakeWorldEnv,
  type LoupeProcess,
  PROJECT_ROOT,
  processGroupMembers,
  startLoupeProcess,
} from "../../support/loupe-process.ts";
import { type SilentGitHub, startSilentGitHub } from "../../support/silent-github.ts";

const SECRET = `whsec-sigterm-${process.pid}-${Date.now()}`; // never under 16 characters, whatever the pid
let github: SilentGitHub;
let loupe: LoupeProcess | null = null;

beforeAll(async () => {
  github = await startSilentGitHub(); // nothing calls GitHub here: the App only starts and stops
});

afterEach(async () => {
  await loupe?.stop(1000); // the whole group, should a test have left part of it
  loupe = null;
});

afterAll(async () => {
  await github?.stop();
});

const env = (extra: Record<string, string>) =>
  fakeWorldEnv({
    github,
    providerBaseURL: "http://127.0.0.1:9/v1",
    webhookSecret: SECRET,
    apiKey: `test-key-sigterm-${process.pid}`,
    extra: { SHUTDOWN_GRACE_SECONDS: "1", ...extra },
  });

/** SIGTERM to the started process only; its exit, what it logged, and what is left of its group. */
async function terminate(started: LoupeProcess) {
  process.kill(started.pid, "SIGTERM");
  const exit = await started.exited;
  return {
    code: exit.code,
    ended: started.output().includes('"msg":"shutdown ended"'),
    left: processGroupMembers(started.pid),
  };
}

describe("SIGTERM to the process the operator started", () => {
  it("npm start (NODE_ENV=production HOST=0.0.0.0): the server shuts down gracefully, nothing is left", async () => {
    loupe = await startLoupeProcess({ command: "npm", env: env({ HOST: "0.0.0.0" }) });
    expect(await terminate(loupe)).toEqual({ code: 0, ended: true, left: [] });
  }, 60_000);

  it("node_modules/.bin/node src/server.ts: the server shuts down gracefully, nothing is left", async () => {
    loupe = await startLoupeProcess({ command: "node", env: env({}) });
    expect(await terminate(loupe)).toEqual({ code: 0, ended: true, left: [] });
  }, 60_000);

  it("the Dockerfile's CMD is that same node command in exec form (no shell between)", () => {
    const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, "Dockerfile"), "utf8");
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd === undefined ? null : JSON.parse(cmd)).toEqual(["node_modules/.bin/node", "src/server.ts"]);
  });
});
