// What a git object is once read from the store, whatever it was stored as (loose, whole in a
// pack, or a delta chain), and the SHA-1 check that proves the bytes are the ones asked for.

import { createHash, type Hash } from "node:crypto";

export type GitObjectType = "commit" | "tree" | "blob" | "tag";

export interface GitObject {
  readonly type: GitObjectType;
  readonly bytes: Uint8Array;
}

/** The object id git gives these bytes: SHA-1 over `<type> <length>\0<bytes>`. */
export function gitObjectId(type: GitObjectType, bytes: Uint8Array): string {
  return objectHash(type, bytes.byteLength).update(bytes).digest("hex");
}

/** The SHA-1 of an object of this type and size, its header hashed: the bytes follow. */
export function objectHash(type: GitObjectType, size: number): Hash {
  return createHash("sha1").update(`${type} ${size}\0`);
}

/** Thrown when the store is damaged: a corrupt or truncated file, or bytes that hash wrongly. */
export class CorruptObjectStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CorruptObjectStoreError";
  }
}
