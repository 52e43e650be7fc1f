// The default branch's guidance files as GitHub's contents API serves them (no ref: nock matches
// no query string unless told, so a request with `?ref=` would find none of these): the root
// and directory listings Loupe asks for (every directory that holds one of the files: a nested
// AGENTS.md must sit in a directory of the changed files), then each file. `optional` mocks may go unused (a review
// that stops before step 3b never reads guidance).

import type { GitHubMock } from "./github-mock.ts";

const enc = (path: string) => encodeURIComponent(path);

/** files: path → text, on the default branch. Only the listings and reads Loupe makes are mocked. */
export function mockGuidance(
  gh: GitHubMock,
  repoPath: string,
  files: Readonly<Record<string, string>>,
  options: { optional?: boolean } = {},
): void {
  const optional = options.optional === true;
  const entries = (dir: string) => {
    const prefix = dir === "" ? "" : `${dir}/`;
    const names = new Map<string, "file" | "dir">([["README.md", "file"]]);
    for (const path of Object.keys(files)) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      names.set(rest.split("/")[0]!, rest.includes("/") ? "dir" : "file");
    }
    return [...names].map(([name, type]) => ({ name, type, path: `${prefix}${name}`, size: 1 }));
  };
  const list = (dir: string) =>
    gh.scope
      // Octokit asks for the root as `/contents`, with no trailing slash.
      .get(dir === "" ? `${repoPath}/contents` : `${repoPath}/contents/${enc(dir)}`)
      .optionally(optional)
      .reply(200, entries(dir));
  const dirs = new Set([""]);
  for (const path of Object.keys(files)) {
    const parts = path.split("/");
    for (let depth = 1; depth < parts.length; depth++) dirs.add(parts.slice(0, depth).join("/"));
  }
  for (const dir of dirs) list(dir);
  for (const [path, text] of Object.entries(files)) {
    const content = Buffer.from(text, "utf8");
    gh.scope
      .get(`${repoPath}/contents/${enc(path)}`)
      .optionally(optional)
      .reply(200, {
        type: "file",
        name: path.split("/").at(-1),
        path,
        size: content.length,
        encoding: "base64",
        content: content.toString("base64"),
      });
  }
}
