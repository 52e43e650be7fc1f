// Which Host the setup page answers to. A page that registers an App and writes its credentials
// must not answer a name someone else controls: with DNS rebinding, a site the operator visits
// can point its own name at 127.0.0.1 and drive the page from the operator's browser. So only a
// loopback name (localhost, 127.0.0.1, [::1]) or the host of LOUPE_PUBLIC_URL is served, and the
// browser is sent back to the same origin it came from. The name is what rebinding forges; a
// loopback name's port is whatever an SSH tunnel or a container's port mapping made it, so any
// port goes with it (a request another site makes to localhost is the state cookie's to refuse).

export type HostCheck =
  | { readonly ok: true; readonly baseUrl: string; readonly secure: boolean }
  | { readonly ok: false; readonly status: 400 | 421; readonly problem: string };

const HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
const LOOPBACK: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);
const DEFAULT_PORT: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/** `host[:port]` in lower case, the scheme's default port dropped (how URL.host writes it). */
function normalise(name: string, port: string | undefined, protocol: string): string {
  const host = name.toLowerCase();
  return port === undefined || port === DEFAULT_PORT[protocol] ? host : `${host}:${Number(port)}`;
}

/**
 * @param header the request's Host header
 * @param localPort the port the connection arrived on (named in the refusal)
 * @param publicUrl LOUPE_PUBLIC_URL (already checked to be an http(s) URL), or null
 */
export function checkSetupHost(
  header: string | undefined,
  localPort: number,
  publicUrl: string | null,
): HostCheck {
  const match = HOST.exec(header ?? "");
  if (match === null) return { ok: false, status: 400, problem: "The Host header is not a host name." };
  const [, name, port] = match as unknown as [string, string, string | undefined];
  if (publicUrl !== null) {
    const url = new URL(publicUrl);
    if (normalise(name, port, url.protocol) === url.host) {
      return { ok: true, baseUrl: `${url.protocol}//${url.host}`, secure: url.protocol === "https:" };
    }
  }
  if (LOOPBACK.has(name.toLowerCase())) {
    return { ok: true, baseUrl: `http://${normalise(name, port, "http:")}`, secure: false };
  }
  const where = `http://localhost:${localPort}/ (or 127.0.0.1, [::1])`;
  return {
    ok: false,
    status: 421,
    problem:
      `This setup page answers only at ${where}` +
      `${publicUrl === null ? "" : ` or at ${new URL(publicUrl).host} (LOUPE_PUBLIC_URL)`}, ` +
      "so that no other name pointing at this server can drive the registration. Open it there " +
      "(an SSH tunnel reaches a remote server's localhost), or set LOUPE_PUBLIC_URL and restart.",
  };
}
