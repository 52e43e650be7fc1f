// Where GitHub will send the App's webhooks, decided before the App is registered: the operator's
// public URL plus Loupe's webhook path (LOUPE_PUBLIC_URL, or typed into the setup page), else a
// WEBHOOK_PROXY_URL channel for local development. GitHub cannot reach localhost, and Loupe only
// listens on its webhook path, so "this page's own URL" is never a default.

export const WEBHOOK_PATH = "/api/github/webhooks";

export type WebhookTarget =
  | { readonly kind: "public"; readonly publicUrl: string; readonly hookUrl: string }
  | { readonly kind: "proxy"; readonly hookUrl: string }
  | { readonly kind: "missing"; readonly problem: string | null };

export type UrlCheck =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly problem: string };

/** Names that lead back to the machine that resolves them: GitHub would be calling itself. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "0.0.0.0" ||
    host === "[::1]" ||
    host === "[::]"
  );
}

/**
 * The operator's public URL: an absolute http(s) URL without credentials, query or fragment, not
 * a loopback name (GitHub cannot reach it). A pasted webhook URL is taken back to its base (Loupe
 * appends the webhook path itself), and the trailing slash is dropped.
 */
export function checkPublicBase(raw: string, name: string): UrlCheck {
  const checked = checkPublicUrl(raw, name);
  if (!checked.ok) return checked;
  const url = new URL(checked.url);
  if (isLoopback(url.hostname)) {
    return {
      ok: false,
      problem: `${name} must be an address GitHub can reach: ${url.host} is this machine's loopback (for local development, use a WEBHOOK_PROXY_URL channel instead)`,
    };
  }
  return {
    ok: true,
    url: checked.url.endsWith(WEBHOOK_PATH) ? checked.url.slice(0, -WEBHOOK_PATH.length) : checked.url,
  };
}

/** An absolute http(s) URL without credentials, query or fragment; the trailing slash dropped. */
export function checkPublicUrl(raw: string, name: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: `${name} must be an absolute URL such as https://loupe.example.com` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, problem: `${name} must start with https:// (or http://)` };
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    return { ok: false, problem: `${name} must not contain credentials, a query or a fragment` };
  }
  return { ok: true, url: url.href.replace(/\/+$/, "") };
}

/** LOUPE_PUBLIC_URL wins, then the page's form value, then WEBHOOK_PROXY_URL. */
export function webhookTarget(
  env: Readonly<Record<string, string | undefined>>,
  typed: string | null,
): WebhookTarget {
  const configured = env.LOUPE_PUBLIC_URL;
  const candidate = configured ?? (typed?.trim() ? typed : undefined);
  if (candidate !== undefined) {
    const checked = checkPublicBase(
      candidate,
      configured !== undefined ? "LOUPE_PUBLIC_URL" : "The public URL",
    );
    if (!checked.ok) return { kind: "missing", problem: checked.problem };
    return { kind: "public", publicUrl: checked.url, hookUrl: `${checked.url}${WEBHOOK_PATH}` };
  }
  const proxy = env.WEBHOOK_PROXY_URL;
  if (proxy !== undefined) {
    const checked = checkPublicUrl(proxy, "WEBHOOK_PROXY_URL");
    if (!checked.ok) return { kind: "missing", problem: checked.problem };
    return { kind: "proxy", hookUrl: checked.url };
  }
  return { kind: "missing", problem: null };
}
