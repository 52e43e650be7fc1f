// The `loupe` command's JavaScript entry, run by bin/loupe with the Node 24 installed alongside
// Loupe (the npm package `node`). Plain JavaScript that any Node can parse, so that an older Node
// (Node 20 has no type stripping) gets a clear message instead of a stack trace.
import { existsSync, realpathSync } from "node:fs";
import module from "node:module";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 24 || (major === 24 && minor < 9)) {
  process.stderr.write(
    `loupe: needs Node.js 24.9 or later, which it installs as its dependency \`node\`; this is ${process.version}.\n` +
      "Reinstall it with its dependencies (npm install -g loupe-review, without --ignore-scripts or --omit=optional), " +
      "or run it with a Node 24: /path/to/node24 bin/loupe.js\n",
  );
  process.exit(2);
}
// Stripping types and compiling Loupe's modules were most of a short command's time
// (bench/README.md); Node's compile cache keeps the compiled code between runs, in the system
// temp directory (NODE_COMPILE_CACHE=<dir> moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off).
module.enableCompileCache?.();
// A checkout runs its TypeScript sources. An installed package runs the JavaScript that `npm pack`
// compiled into dist/: Node refuses to strip types under node_modules.
const source = new URL("../src/cli.ts", import.meta.url);
const runsSource = existsSync(source) && !/[/\\]node_modules[/\\]/.test(realpathSync(source));
const { runCli } = await import(runsSource ? "../src/cli.ts" : "../dist/cli.js");
await runCli();
