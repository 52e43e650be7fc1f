// The `state` of the manifest flow, bound to the browser that started it. GET / gives each
// browser its own random state, in the register form's URL and in an HttpOnly, SameSite=Lax
// cookie; the callback is accepted only when it carries a state this server issued and has not
// seen back yet, and the same value in the cookie, compared in constant time. A link or a page
// elsewhere cannot finish a registration someone else's browser started, nor can a callback be
// replayed: the state is spent the moment it comes back, whatever happens next.

import crypto from "node:crypto";

export const STATE_COOKIE = "loupe_setup_state";
/** GitHub's manifest code lives an hour; a state is not worth keeping longer. */
export const STATE_TTL_MS = 60 * 60 * 1000;
const MAX_PENDING = 50;

export type StateCheck = "ok" | "no_cookie" | "mismatch" | "unknown";

export interface SetupStates {
  /** The browser's pending state when its cookie names one, else a new one. */
  issue(cookieHeader: string | undefined): string;
  /** Checks a callback's state against the cookie and spends it (even when the check fails). */
  consume(cookieHeader: string | undefined, state: string | null): StateCheck;
}

export interface SetupStatesOptions {
  readonly now?: () => number;
  readonly ttlMs?: number;
}

export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function stateCookie(state: string, secure: boolean): string {
  const flags = `HttpOnly; SameSite=Lax; Path=/; Max-Age=${STATE_TTL_MS / 1000}`;
  return `${STATE_COOKIE}=${state}; ${flags}${secure ? "; Secure" : ""}`;
}

export function clearedStateCookie(secure: boolean): string {
  return `${STATE_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${secure ? "; Secure" : ""}`;
}

const digest = (text: string) => crypto.createHash("sha256").update(text).digest();

/** Equal-length digests compared in constant time: neither the length nor a prefix leaks. */
export function sameSecret(a: string, b: string): boolean {
  return crypto.timingSafeEqual(digest(a), digest(b));
}

export function createSetupStates(options: SetupStatesOptions = {}): SetupStates {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? STATE_TTL_MS;
  const pending = new Map<string, number>(); // state → expiry, oldest first
  const live = (state: string) => {
    const expiry = pending.get(state);
    if (expiry !== undefined && expiry > now()) return true;
    pending.delete(state);
    return false;
  };
  return {
    issue(cookieHeader) {
      const held = readCookie(cookieHeader, STATE_COOKIE);
      if (held !== null && live(held)) return held;
      const state = crypto.randomBytes(32).toString("hex");
      pending.set(state, now() + ttlMs);
      // A bounded store: whoever reloads the page a thousand times evicts only the oldest states.
      while (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
      return state;
    },
    consume(cookieHeader, state) {
      const issued = state !== null && live(state);
      if (state !== null) pending.delete(state); // spent, whatever happens next
      if (!issued) return "unknown";
      const cookie = readCookie(cookieHeader, STATE_COOKIE);
      if (cookie === null || cookie === "") return "no_cookie";
      return sameSecret(cookie, state) ? "ok" : "mismatch";
    },
  };
}
