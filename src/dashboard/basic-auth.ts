// HTTP Basic authentication (RFC 7617) against one user and password: what a browser asks for by
// itself and then sends with every request of the page (its scripts, styles and API calls).

import crypto from "node:crypto";
import type { DashboardCredentials } from "../config/dashboard-config.ts";

const digest = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest();

/** Compares equal-length digests in constant time: neither a length nor a prefix leaks. */
const same = (given: string, expected: string) => crypto.timingSafeEqual(digest(given), digest(expected));

export function basicAuthorized(header: string | undefined, credentials: DashboardCredentials): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header ?? "");
  if (match === null) return false;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  // Both halves are always compared (no short circuit), so a right user name takes no longer.
  const userOk = same(decoded.slice(0, colon), credentials.user);
  const passwordOk = same(decoded.slice(colon + 1), credentials.password);
  return userOk && passwordOk;
}

export const BASIC_CHALLENGE = 'Basic realm="loupe-dashboard", charset="UTF-8"';
