// Authentication as GitHub does it for an App: the App signs a JWT (RS256) with its private key
// and trades it at POST /app/installations/:id/access_tokens for a one-hour installation token,
// which every later REST and git request carries. The fake verifies the JWT against the public
// key with node:crypto, so an App that signs with the wrong key or wrong claims is refused.

import crypto from "node:crypto";

export interface AppKeyPair {
  /** PKCS#1 PEM ("BEGIN RSA PRIVATE KEY"), what GitHub hands out and Probot's PRIVATE_KEY takes. */
  readonly privateKey: string;
  readonly publicKey: crypto.KeyObject;
}

/** A fresh 2048-bit RSA key pair, as GitHub generates for an App. */
export function generateAppKey(): AppKeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    publicKey,
  };
}

export type JwtCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

const SKEW_SECONDS = 60;
const MAX_LIFETIME_SECONDS = 600;

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Verifies `Authorization: Bearer <jwt>` the way GitHub does (messages are GitHub's wording). */
export function verifyAppJwt(
  authorization: string | undefined,
  options: { readonly appId: string; readonly publicKey: crypto.KeyObject; readonly now?: number },
): JwtCheck {
  const match = /^Bearer (\S+)$/i.exec(authorization ?? "");
  const jwt = match?.[1];
  const parts = jwt?.split(".") ?? [];
  const [headerPart, payloadPart, signaturePart] = parts;
  if (parts.length !== 3 || !headerPart || !payloadPart || !signaturePart) {
    return { ok: false, message: "A JSON web token could not be decoded" };
  }
  const header = decodePart(headerPart);
  const payload = decodePart(payloadPart);
  if (header === undefined || payload === undefined) {
    return { ok: false, message: "A JSON web token could not be decoded" };
  }
  if (header.alg !== "RS256") return { ok: false, message: "A JSON web token could not be decoded" };
  const signed = crypto.verify(
    "sha256",
    Buffer.from(`${headerPart}.${payloadPart}`),
    options.publicKey,
    Buffer.from(signaturePart, "base64url"),
  );
  if (!signed) {
    return { ok: false, message: "A JSON web token could not be decoded" };
  }
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const { iat, exp, iss } = payload;
  if (typeof exp !== "number" || exp <= now - SKEW_SECONDS) {
    return {
      ok: false,
      message:
        "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    };
  }
  if (typeof iat !== "number" || iat > now + SKEW_SECONDS) {
    return {
      ok: false,
      message:
        "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    };
  }
  if (exp - iat > MAX_LIFETIME_SECONDS + SKEW_SECONDS) {
    return { ok: false, message: "'Expiration time' claim ('exp') is too far in the future" };
  }
  if (String(iss) !== options.appId) {
    return { ok: false, message: "'Issuer' claim ('iss') must be an Integer" };
  }
  return { ok: true };
}

/** An installation token: `ghs_` + 36 base62 characters, like GitHub's. */
export function newInstallationToken(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.randomBytes(36);
  let token = "ghs_";
  for (const byte of bytes) token += alphabet[byte % alphabet.length];
  return token;
}

/** The token carried by `Authorization: token X` / `Bearer X` / git's `Basic x-access-token:X`. */
export function presentedToken(authorization: string | undefined): string | undefined {
  const value = authorization ?? "";
  const plain = /^(?:token|bearer) (\S+)$/i.exec(value);
  if (plain?.[1]) return plain[1];
  const basic = /^basic (\S+)$/i.exec(value);
  if (!basic?.[1]) return undefined;
  const decoded = Buffer.from(basic[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}
