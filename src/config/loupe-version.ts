// Loupe's version, for the tool machines are told about (SARIF's tool.driver, the
// agents' JSON). Read from Loupe's own package.json, found from this module's place: src/config/
// or dist/config/ in a package, dist-action/ in the Action's bundle.

import { readFileSync } from "node:fs";

/** No informationUri: Loupe has no published home page to point a reader to yet. */
export function loupeTool(): { readonly version: string } {
  for (const up of ["../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === "loupe-review" && typeof pkg.version === "string") {
        return { version: pkg.version };
      }
    } catch {
      // Not there: the next place up.
    }
  }
  return { version: "0.0.0" };
}
