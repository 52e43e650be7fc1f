// search_repository as the App's warm repository worker runs it: modules loaded and code
// optimised by a first search, then each search on a freshly opened repository (so no object
// comes from an earlier search's cache), its own CPU time in the process. Prints one JSON line:
// the median of the warm searches, in ms of CPU (user + system).
// With a URL and the merge-base, each search's workspace is fetched as the App fetches it (head +
// merge-base, the packs indexed by Loupe), and only the search is timed.
// usage: node bench/search-warm.ts <repository> <revision> <query> [searches]
//        node bench/search-warm.ts <url> <head> <query> <searches> <merge-base>
import { createToolRegistry } from "../src/tools/registry.ts";
import { fetchWorkspace } from "../src/workspace/fetch.ts";
import { openLocalRepository } from "../src/workspace/open-local.ts";
import type { Workspace } from "../src/workspace/types.ts";

const [dir, revision, query, searchesArg, mergeBase] = process.argv.slice(2);
if (dir === undefined || revision === undefined || query === undefined) {
  process.stderr.write(
    "usage: node bench/search-warm.ts <repository> <revision> <query> [searches]\n" +
      "       node bench/search-warm.ts <url> <head> <query> <searches> <merge-base>\n",
  );
  process.exit(2);
}
const open = (): Promise<Workspace> =>
  mergeBase === undefined
    ? openLocalRepository({ dir: dir!, base: revision!, head: revision! })
    : fetchWorkspace({ url: dir!, headSha: revision!, mergeBaseSha: mergeBase });
const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function search(): Promise<number> {
  const workspace = await open();
  const registry = createToolRegistry(workspace);
  const parsed = registry.parseArguments("search_repository", { query });
  if (!parsed.ok) throw new Error(parsed.message);
  const start = cpuMs();
  const result = await registry.execute("search_repository", parsed.args);
  const spent = cpuMs() - start;
  await workspace.dispose();
  if (result.content.includes('"ok":false')) throw new Error(`the search failed: ${result.content}`);
  return spent;
}

await search(); // the first: code not yet optimised
const warm: number[] = [];
for (let run = 0; run < Number(searchesArg ?? 5); run += 1) warm.push(await search());
warm.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ searchCpuMs: Math.round(warm[Math.floor(warm.length / 2)]!) })}\n`);
