// Guidance files from one commit of a local or fetched repository (the base side for
// `loupe review`), under the read tool's path rules: symlinks resolved inside the commit, no
// submodules, and nothing over the size bound inflated.

import { resolvePath } from "../tools/resolve-path.ts";
import { isFailure } from "../tools/result.ts";
import type { CommitSnapshot, ObjectReader } from "../workspace/types.ts";
import type { GuidanceDirEntry, GuidanceRead, GuidanceSource } from "./types.ts";

export function snapshotGuidanceSource(snapshot: CommitSnapshot, objects: ObjectReader): GuidanceSource {
  return {
    async list(dir): Promise<GuidanceDirEntry[]> {
      const prefix = dir === "" ? "" : `${dir}/`;
      const seen = new Map<string, GuidanceDirEntry>();
      for (const entry of snapshot.entries) {
        if (!entry.path.startsWith(prefix)) continue;
        const rest = entry.path.slice(prefix.length);
        const slash = rest.indexOf("/");
        const name = slash === -1 ? rest : rest.slice(0, slash);
        if (seen.has(name)) continue;
        const type = slash !== -1 ? "dir" : entry.mode === "submodule" ? "other" : "file";
        seen.set(name, { name, type });
      }
      return [...seen.values()];
    },
    async read(path, maxBytes): Promise<GuidanceRead> {
      const resolved = await resolvePath({ snapshot, objects }, path);
      if (isFailure(resolved)) {
        return resolved.error.code === "path_not_found"
          ? { kind: "missing" }
          : { kind: "unreadable", reason: "resolves outside the repository" };
      }
      if (resolved.kind === "directory" || resolved.entry.mode === "submodule") {
        return { kind: "unreadable", reason: "is not a regular file" };
      }
      const bytes = await objects.readBlobWithin(resolved.entry.oid, maxBytes);
      if (bytes === "too_large")
        return { kind: "too_large", size: await objects.blobSize(resolved.entry.oid) };
      return { kind: "found", bytes };
    },
  };
}
