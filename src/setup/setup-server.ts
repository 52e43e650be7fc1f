// What `npm start` serves before the App exists: GET / explains and shows the manifest form
// (asking for the public URL when it is not configured), GET /setup/callback trades GitHub's code
// for the credentials and writes them to `.env`, and the operator's /healthz and /readyz (not
// ready: nothing can be reviewed yet). Only a loopback Host or LOUPE_PUBLIC_URL's host is served
// (allowed-host.ts); each browser gets its own state, in a cookie (setup-state.ts); the callback is
// one-time and closed once credentials exist (setup-callback.ts).

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { webhookTarget } from "../config/webhook-target.ts";
import { LoupeError } from "../domain/errors.ts";
import { createOpsRoutes } from "../http/ops-routes.ts";
import { checkSetupHost } from "./allowed-host.ts";
import { type AppYml, buildManifest, CALLBACK_PATH, createAppUrl } from "./app-manifest.ts";
import { checkOrgLogin, chooseOwner } from "./app-owner.ts";
import { createCallback, credentialsExist } from "./setup-callback.ts";
import { alreadyRegisteredPage, askPublicUrlPage, problemPage, registerPage } from "./setup-pages.ts";
import { clearedStateCookie, createSetupStates, stateCookie } from "./setup-state.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface SetupOptions {
  readonly env: Env;
  readonly envFile: string;
  readonly appYml: AppYml;
  readonly fetch?: typeof fetch;
  readonly log?: (line: string) => void;
  /** The clock the setup states expire by (tests move it). */
  readonly now?: () => number;
}

/** The credentials are written once, right after GitHub created the App: be sure that can work. */
export function checkEnvFileWritable(envFile: string): void {
  const target = fs.existsSync(envFile) ? envFile : path.dirname(envFile);
  try {
    fs.accessSync(target, fs.constants.W_OK);
  } catch {
    throw new LoupeError(
      "configuration_invalid",
      `the setup flow writes the App's credentials to ${envFile}, but ${target} is not writable: start Loupe from a writable directory`,
    );
  }
}

/** Refuses at startup what the page could only report later: a bad LOUPE_PUBLIC_URL or GH_ORG. */
export function checkSetupEnv(env: Env): void {
  const target = webhookTarget(env, null);
  if (target.kind === "missing" && target.problem !== null) {
    throw new LoupeError("configuration_invalid", target.problem);
  }
  const orgProblem = env.GH_ORG === undefined ? null : checkOrgLogin("GH_ORG", env.GH_ORG);
  if (orgProblem !== null) throw new LoupeError("configuration_invalid", orgProblem);
}

export function createSetupHandler(options: SetupOptions): http.RequestListener {
  const states = createSetupStates(options.now ? { now: options.now } : {});
  const callback = createCallback({ ...options, states });
  const publicUrl = webhookTarget({ LOUPE_PUBLIC_URL: options.env.LOUPE_PUBLIC_URL }, null);
  const ops = createOpsRoutes({
    readiness: () => ({
      ready: false,
      reason: "the GitHub App is not registered yet: open / to register it",
    }),
    metrics: null,
    metricsToken: null,
  });
  const html = (res: http.ServerResponse, status: number, body: string, cookie?: string) => {
    res.writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action *",
      "referrer-policy": "no-referrer", // the callback URL carries the one-time code
      ...(cookie === undefined ? {} : { "set-cookie": cookie }),
    });
    res.end(body);
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (await ops(req, res)) return;
    const host = checkSetupHost(
      req.headers.host,
      req.socket.localPort ?? 0,
      publicUrl.kind === "public" ? publicUrl.publicUrl : null,
    );
    if (!host.ok) return html(res, host.status, problemPage("Wrong address", host.problem));
    const url = new URL(req.url ?? "/", "http://setup.invalid");
    if (req.method !== "GET") return html(res, 405, problemPage("Not here", "Only GET is served."));
    if (url.pathname === CALLBACK_PATH) {
      const answer = await callback(req, url);
      return html(res, answer.status, answer.html, clearedStateCookie(host.secure));
    }
    if (url.pathname !== "/") return html(res, 404, problemPage("Not found", "The setup page is at /."));
    if (credentialsExist(options.env, options.envFile))
      return html(res, 200, alreadyRegisteredPage(options.envFile));
    const typedUrl = url.searchParams.get("public_url");
    const target = webhookTarget(options.env, typedUrl);
    const owner = chooseOwner(options.env, url.searchParams.get("org"));
    const ask = {
      problem: null,
      org: url.searchParams.get("org") ?? options.env.GH_ORG ?? null,
      publicUrl: typedUrl,
    };
    if (target.kind === "missing")
      return html(res, target.problem ? 400 : 200, askPublicUrlPage({ ...ask, problem: target.problem }));
    if (!owner.ok) {
      // Asked again with the URL already typed (or configured) kept in the form.
      const page = askPublicUrlPage({ ...ask, problem: owner.problem });
      return html(res, 400, page);
    }
    const state = states.issue(req.headers.cookie);
    const manifest = buildManifest({
      appYml: options.appYml,
      hookUrl: target.hookUrl,
      setupBaseUrl: host.baseUrl,
    });
    const page = registerPage({
      createAppUrl: createAppUrl(options.env, state, owner.org),
      manifest,
      hookUrl: target.hookUrl,
      org: owner.org,
      typedPublicUrl: options.env.LOUPE_PUBLIC_URL === undefined ? typedUrl : null,
      viaProxy: target.kind === "proxy",
    });
    html(res, 200, page, stateCookie(state, host.secure));
  };

  return (req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
}

export async function startSetupServer(
  options: SetupOptions & { readonly host: string; readonly port: number },
): Promise<http.Server> {
  checkSetupEnv(options.env);
  checkEnvFileWritable(options.envFile);
  const server = http.createServer(createSetupHandler(options));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const shown = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  options.log?.(`Loupe has no GitHub App yet: open http://${shown}:${port}/ to register one.`);
  return server;
}
