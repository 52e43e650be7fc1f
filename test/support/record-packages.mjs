// Preloaded into a child Node process (NODE_OPTIONS=--import=<this file>) by tests that bound what
// it loads: every npm package its main thread loads a module from, once, a line each, appended to
// the file LOADED_PACKAGES_FILE names.

import fs from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.LOADED_PACKAGES_FILE;
if (file !== undefined && file !== "") {
  const seen = new Set();
  registerHooks({
    load(url, context, nextLoad) {
      const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
      if (name !== undefined && !seen.has(name)) {
        seen.add(name);
        fs.appendFileSync(file, `${name}\n`);
      }
      return nextLoad(url, context);
    },
  });
}
