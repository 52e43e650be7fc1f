// A thin typed client of GitLab's REST API v4, in place of @gitbeaker/rest: measured, its request
// handler retries a 429 ten times within about a quarter of a second and never reads Retry-After,
// and it brings 2.7 MB for the dozen endpoints Loupe calls. Here a 429 (and a 502/503) waits as
// long as GitLab asks, but only while the wait fits the review's deadline; the token travels only
// in the PRIVATE-TOKEN header, to the configured instance; every refusal is a GitLabError with
// GitLab's own message. Pages follow GitLab's X-Next-Page header. Every text it sends that GitLab
// could run quick actions in (a note's or a draft's body, a status's description) leaves through
// one neutralising step here, whoever wrote it (review/inert-commands.ts).

import { redactSecrets } from "../../domain/redact.ts";
import { inertCommands } from "../../review/inert-commands.ts";

export interface GitLabRetry {
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  /** Epoch ms after which a wait is not started: the error goes through. */
  readonly deadline: number;
}

/** Waits for nothing: GitLab's answer now, or its error (a check at start, a webhook's calls). */
export const NO_RETRY: GitLabRetry = { sleep: async () => {}, now: Date.now, deadline: 0 };

export interface GitLabApiOptions {
  /** The instance, e.g. https://gitlab.example.com (the API is under /api/v4). */
  readonly url: string;
  readonly token: string;
  readonly retry: GitLabRetry;
  readonly fetch?: typeof fetch;
  /** Told of each answer and each failure to get one: the process's record of GitLab's health. */
  readonly health?: GitLabHealth;
}

/** Where the client reports whether GitLab answers (the dependency state of the metrics and logs). */
export interface GitLabHealth {
  /** No answer (refused, DNS, a certificate not trusted…) or a 5xx. */
  failed(error: unknown): void;
  succeeded(): void;
}

/** A request GitLab refused (or could not answer), with its status and GitLab's message. */
export class GitLabError extends Error {
  readonly status: number;
  readonly retryAfterMs: number | null;

  constructor(method: string, path: string, status: number, detail: string, retryAfterMs: number | null) {
    super(redactSecrets(`GitLab ${method} ${path.split("?")[0]} answered ${status}: ${detail}`));
    this.name = "GitLabError";
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

export function gitLabStatus(error: unknown): number | null {
  return error instanceof GitLabError ? error.status : null;
}

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export interface GitLabApi {
  get<T>(path: string, query?: Query): Promise<T>;
  /** Every page of a list (100 a page), at most maxPages of them; `more` when GitLab had more. */
  pages<T>(path: string, query?: Query, maxPages?: number): Promise<{ items: T[]; more: boolean }>;
  /** A raw file's text, or null for a 404. */
  text(path: string, query?: Query): Promise<string | null>;
  /** A HEAD request's headers (GitLab puts a file's size there), or null for a 404. */
  head(path: string, query?: Query): Promise<Headers | null>;
  /**
   * `once`: a request that may have partly happened when it fails (GitLab's bulk publish creates
   * notes one by one): retried only on a 429, which GitLab answers before doing anything.
   */
  post<T>(path: string, body?: object, options?: { readonly once?: boolean }): Promise<T>;
  put<T>(path: string, body?: object): Promise<T>;
  delete(path: string): Promise<void>;
}

const RETRIED = new Set([429, 502, 503]);
const MAX_ATTEMPTS = 4;
const DEFAULT_WAIT_MS = 10_000;

/** The URL-encoded path of a project, as GitLab's `:id` takes it. */
export function projectId(path: string): string {
  return encodeURIComponent(path);
}

export function gitLabApi(options: GitLabApiOptions): GitLabApi {
  const base = `${options.url.replace(/\/+$/, "")}/api/v4`;
  const doFetch = options.fetch ?? fetch;
  const send = async (
    method: string,
    path: string,
    query?: Query,
    body?: object,
    once = false,
  ): Promise<Response> => {
    const url = new URL(`${base}${path}`);
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers: {
            "PRIVATE-TOKEN": options.token,
            Accept: "application/json",
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(outgoing(body)) }),
          redirect: "error",
        });
      } catch (error) {
        options.health?.failed(error);
        throw error;
      }
      if (response.status >= 500) options.health?.failed({ status: response.status });
      else options.health?.succeeded();
      if (response.ok || (response.status === 404 && (method === "GET" || method === "HEAD")))
        return response;
      const wait = retryAfterMs(response);
      const error = new GitLabError(method, path, response.status, await detailOf(response), wait);
      const waitMs = wait ?? DEFAULT_WAIT_MS;
      const retry = (once ? response.status === 429 : RETRIED.has(response.status)) && attempt < MAX_ATTEMPTS;
      if (!retry || options.retry.now() + waitMs > options.retry.deadline) throw error;
      await options.retry.sleep(waitMs);
    }
  };
  const json = async <T>(
    method: string,
    path: string,
    query?: Query,
    body?: object,
    once?: boolean,
  ): Promise<T> => {
    const response = await send(method, path, query, body, once);
    if (response.status === 404) throw new GitLabError(method, path, 404, await detailOf(response), null);
    return (response.status === 204 ? null : await response.json()) as T;
  };
  return {
    get: (path, query) => json("GET", path, query),
    async pages<T>(path: string, query: Query = {}, maxPages = 100) {
      const items: T[] = [];
      let page: string | null = "1";
      for (let n = 0; page !== null && page !== "" && n < maxPages; n++) {
        const response = await send("GET", path, { ...query, per_page: 100, page });
        if (response.status === 404) throw new GitLabError("GET", path, 404, await detailOf(response), null);
        items.push(...((await response.json()) as T[]));
        page = response.headers.get("x-next-page");
      }
      return { items, more: page !== null && page !== "" };
    },
    async text(path, query) {
      const response = await send("GET", path, query);
      return response.status === 404 ? null : await response.text();
    },
    async head(path, query) {
      const response = await send("HEAD", path, query);
      return response.status === 404 ? null : response.headers;
    },
    post: (path, body, options) => json("POST", path, undefined, body ?? {}, options?.once),
    put: (path, body) => json("PUT", path, undefined, body ?? {}),
    async delete(path) {
      await send("DELETE", path);
    },
  };
}

/** The fields of a request body GitLab reads as Markdown someone wrote, and may run commands in. */
const WRITTEN_TEXT = ["body", "note", "description"] as const;

/** A request body as it leaves: its written texts with no line GitLab could run as a command. */
export function outgoing(body: object): object {
  const texts: Record<string, unknown> = {};
  for (const field of WRITTEN_TEXT) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === "string") texts[field] = inertCommands(value);
  }
  return { ...body, ...texts };
}

function retryAfterMs(response: Response): number | null {
  const header = response.headers.get("retry-after");
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** GitLab's `message` or `error` (a string, or a map of field → messages), else the text. */
async function detailOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const said = body.message ?? body.error;
    if (typeof said === "string") return said;
    if (said !== undefined) return JSON.stringify(said);
  } catch {
    // not JSON: the text itself, cut
  }
  return text.slice(0, 200) || response.statusText;
}

/** The token's own username (GET /user), looked up once; a failed lookup is tried again next time. */
export function tokenUser(api: GitLabApi): () => Promise<string> {
  let known: Promise<string> | null = null;
  return () => {
    known ??= api.get<{ username: string }>("/user").then(
      (user) => user.username,
      (error: unknown) => {
        known = null;
        throw error;
      },
    );
    return known;
  };
}
