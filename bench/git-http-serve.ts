// Serves a directory of bare repositories over smart HTTP (the test CGI bridge to
// git http-backend) on 127.0.0.1 until killed; prints the base URL on stdout.
// usage: node bench/git-http-serve.ts <root>
import { startGitHttpServer } from "../test/support/git-http-server.ts";

const root = process.argv[2];
if (root === undefined) {
  process.stderr.write("usage: node bench/git-http-serve.ts <root>\n");
  process.exit(2);
}
const server = await startGitHttpServer({ root });
process.stdout.write(`${server.url("x").replace(/\/x\.git$/, "")}\n`);
const stop = (): void => {
  void server.stop().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
