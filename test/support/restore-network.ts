// Run after every test file (jest's setupFilesAfterEnv), in both tiers. nock patches Node's
// `net` and `http` modules, which every test file in a worker process shares, while jest gives
// each file its own module registry and so its own nock. A file that loaded nock (directly, or
// through a support module such as the Probot harness or the GitHub answer server) and left it
// active kept its interception on the next file's sockets: both nocks answered one request, and
// the next file read its own reply with the other's 501 "no match" appended. Restoring at the end
// of each file leaves the worker as the file found it, so one worker can run file after file.
// Only `restore()`: the file's own afterAll hooks may still assert on its scopes.

import { afterAll } from "@jest/globals";

afterAll(async () => {
  const { default: nock } = await import("nock");
  nock.restore();
});
