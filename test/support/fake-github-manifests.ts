// GitHub's App-manifest flow, faked: the "new App" page (personal or organisation) receives the
// manifest form, registers the App and sends the browser back to the manifest's redirect_url with
// a one-time code and the page's state; POST /app-manifests/{code}/conversions trades the code,
// once, for the App's credentials (this fake's own App id and key, so the App can then run).

import crypto from "node:crypto";

export interface ManifestRegistration {
  /** null for a personal account, else the organisation's login. */
  readonly org: string | null;
  readonly manifest: Record<string, unknown>;
  readonly state: string | null;
  readonly code: string;
  /** The webhook secret handed out at conversion (null until then). */
  webhookSecret: string | null;
}

export interface ManifestReply {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: unknown;
}

export interface ManifestFlow {
  readonly registrations: ManifestRegistration[];
  /** POST /settings/apps/new or /organizations/<org>/settings/apps/new; null when not such a path. */
  newApp(pathname: string, search: string, body: string): ManifestReply | null;
  /** POST /api/v3/app-manifests/<code>/conversions; null when not such a path. */
  convert(method: string, pathname: string): ManifestReply | null;
}

export function createManifestFlow(app: {
  readonly appId: string;
  readonly privateKey: string;
  readonly htmlBase: () => string;
}): ManifestFlow {
  const registrations: ManifestRegistration[] = [];
  const unused = new Map<string, ManifestRegistration>();
  return {
    registrations,
    newApp(pathname, search, body) {
      const route = /^(?:\/organizations\/([^/]+))?\/settings\/apps\/new$/.exec(pathname);
      if (route === null) return null;
      const form = new URLSearchParams(body);
      let manifest: Record<string, unknown>;
      try {
        manifest = JSON.parse(form.get("manifest") ?? "") as Record<string, unknown>;
      } catch {
        return { status: 400, body: "Invalid GitHub App configuration: the manifest is not JSON" };
      }
      const hook = (manifest.hook_attributes as { url?: unknown } | undefined)?.url;
      if (
        typeof manifest.redirect_url !== "string" ||
        typeof hook !== "string" ||
        !/^https?:\/\//.test(hook)
      ) {
        return {
          status: 400,
          body: "Invalid GitHub App configuration: redirect_url and hook_attributes.url",
        };
      }
      const code = crypto.randomBytes(10).toString("hex");
      const state = new URLSearchParams(search).get("state");
      const registration: ManifestRegistration = {
        org: route[1] === undefined ? null : decodeURIComponent(route[1]),
        manifest,
        state,
        code,
        webhookSecret: null,
      };
      registrations.push(registration);
      unused.set(code, registration);
      const back = new URL(manifest.redirect_url);
      back.searchParams.set("code", code);
      if (state !== null) back.searchParams.set("state", state);
      return { status: 302, headers: { location: back.href }, body: "" };
    },
    convert(method, pathname) {
      const route = /^\/api\/v3\/app-manifests\/([^/]+)\/conversions$/.exec(pathname);
      if (route === null || method !== "POST") return null;
      const registration = unused.get(route[1]!);
      if (registration === undefined) return { status: 404, body: { message: "Not Found" } };
      unused.delete(route[1]!);
      registration.webhookSecret = crypto.randomBytes(20).toString("hex");
      const slug = String(registration.manifest.name ?? "app")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-");
      const owner = registration.org ?? "octocat";
      return {
        status: 201,
        body: {
          id: Number(app.appId),
          slug,
          node_id: "MDM6QXBwNTk=",
          name: registration.manifest.name,
          owner: { login: owner, type: registration.org === null ? "User" : "Organization" },
          html_url: `${app.htmlBase()}/apps/${slug}`,
          client_id: "Iv1.8a61f9b3a7aba766",
          client_secret: crypto.randomBytes(20).toString("hex"),
          webhook_secret: registration.webhookSecret,
          pem: app.privateKey,
          events: registration.manifest.default_events ?? [],
          permissions: registration.manifest.default_permissions ?? {},
        },
      };
    },
  };
}
