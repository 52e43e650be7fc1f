// The App's private key, checked at start: Probot takes any text and fails the first review with
// "Invalid keyData", so a key that does not parse as an RSA private key stops Loupe with one line
// naming the variable. The forms Probot accepts are accepted: PEM text (with real or escaped
// newlines), base64-encoded PEM, or a file named by PRIVATE_KEY_PATH.

import { createPrivateKey } from "node:crypto";
import fs from "node:fs";
import type { Env } from "./env-fields.ts";

/** An error line, or null when the key (or the file PRIVATE_KEY_PATH names) is an RSA private key. */
export function privateKeyProblem(env: Env): string | null {
  const fromPath = env.PRIVATE_KEY === undefined && env.PRIVATE_KEY_PATH !== undefined;
  const name = fromPath ? "PRIVATE_KEY_PATH" : "PRIVATE_KEY";
  const text = fromPath ? readKeyFile(env.PRIVATE_KEY_PATH ?? "") : (env.PRIVATE_KEY ?? "");
  if (text === null) {
    return "PRIVATE_KEY_PATH names no readable file: set the path of the .pem file downloaded from the App's settings page";
  }
  if (isRsaPrivateKey(pemText(text))) return null;
  return `${name} ${fromPath ? "names a file that is" : "is"} not an RSA private key in PEM form: download a private key from the App's settings page`;
}

function readKeyFile(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function pemText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.includes("-----BEGIN")) return trimmed.replace(/\\n/g, "\n");
  return Buffer.from(trimmed, "base64").toString("utf8");
}

function isRsaPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}
