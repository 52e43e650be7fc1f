// Where the repository worker's script is. A checkout runs Loupe's TypeScript sources (Node strips
// the types, in a worker as in the main thread); an installed package runs the JavaScript that
// `npm pack` compiled into dist/, where this module is itself a .js file. The script sits next to
// this module with the same extension, so one rule finds it in both.

export function repositoryWorkerEntry(): URL {
  const extension = new URL(import.meta.url).pathname.endsWith(".ts") ? ".ts" : ".js";
  return new URL(`./worker-main${extension}`, import.meta.url);
}
