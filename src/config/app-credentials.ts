// The App's private key, checked at start: Probot takes any text and fails the first review with
// "Invalid keyData", so a key that does not parse as an RSA private key stops Loupe with one line
// naming the variable. The forms Probot accepts are accepted: PEM text (with real or escaped
// newlines), base64-encoded PEM, or a file named by PRIVATE_KEY_PATH.

import { createPrivateKey } from "node:crypto";
import fs from "node:fs";
import { LoupeError } from "../domain/errors.ts";
import type { Env } from "./load-env.ts";

export function checkPrivateKey(env: Env): void {
  const fromPath = env.PRIVATE_KEY === undefined && env.PRIVATE_KEY_PATH !== undefined;
  const name = fromPath ? "PRIVATE_KEY_PATH" : "PRIVATE_KEY";
  const text = fromPath ? readKeyFile(env.PRIVATE_KEY_PATH ?? "") : (env.PRIVATE_KEY ?? "");
  if (!isRsaPrivateKey(pemText(text))) {
    throw new LoupeError(
      "configuration_invalid",
      `${name} ${fromPath ? "names a file that is" : "is"} not an RSA private key in PEM form: download a private key from the App's settings page`,
    );
  }
}

function readKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    throw new LoupeError("configuration_invalid", "PRIVATE_KEY_PATH names no readable file");
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
