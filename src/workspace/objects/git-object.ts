// What a git object is once read from the store, whatever it was stored as (loose, whole in a
// pack, or a delta chain), and the SHA-1 check that proves the bytes are the ones asked for.

import { createHash } from "node:crypto";

export type GitObjectType = "commit" | "tree" | "blob" | "tag";

export interface GitObject {
  readonly type: GitObjectType;
  readonly bytes: Uint8Array;
}

/** The object id git gives these bytes: SHA-1 over `<type> <length>\0<bytes>`. */
export function gitObjectId(type: GitObjectType, bytes: Uint8Array): string {
  return createHash("sha1").update(`${type} ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/** Thrown when the store is damaged: a corrupt or truncated file, or bytes that hash wrongly. */
export class CorruptObjectStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorruptObjectStoreError";
  }
}
