// Renders a kustomization in-process, as `kubectl kustomize` would, for the part of kustomize
// that deploy/kubernetes uses: `resources` (files of one or more documents, and directories with
// a kustomization of their own), `labels` (added to each resource's metadata, never to
// selectors), `images` (a container image's name and tag) and `namespace`. Anything else in a
// kustomization is refused by name rather than ignored, so a manifest cannot rely on a feature
// this renderer would silently skip. No cluster and no kustomize binary run here.

import fs from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";

export type Resource = Record<string, unknown> & {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

const SUPPORTED = new Set(["apiVersion", "kind", "resources", "labels", "images", "namespace"]);

interface Kustomization {
  readonly resources?: string[];
  readonly labels?: {
    pairs: Record<string, string>;
    includeSelectors?: boolean;
    includeTemplates?: boolean;
  }[];
  readonly images?: { name: string; newName?: string; newTag?: string }[];
  readonly namespace?: string;
}

export function renderKustomization(dir: string): Resource[] {
  const file = path.join(dir, "kustomization.yaml");
  const kustomization = readDocuments(file)[0] as Kustomization & Record<string, unknown>;
  for (const key of Object.keys(kustomization)) {
    if (!SUPPORTED.has(key))
      throw new Error(`${file}: "${key}" is not rendered here (supported: ${[...SUPPORTED].join(", ")})`);
  }
  const resources = (kustomization.resources ?? []).flatMap((entry) => {
    const target = path.resolve(dir, entry);
    return fs.statSync(target).isDirectory()
      ? renderKustomization(target)
      : (readDocuments(target) as Resource[]);
  });
  const seen = new Set<string>();
  for (const resource of resources) {
    const id = `${resource.kind}/${resource.metadata?.name}`;
    if (seen.has(id)) throw new Error(`${file}: ${id} is defined twice`);
    seen.add(id);
    for (const label of kustomization.labels ?? []) {
      if (label.includeSelectors === true || label.includeTemplates === true)
        throw new Error(`${file}: labels into selectors or templates are not rendered here`);
      resource.metadata.labels = { ...resource.metadata.labels, ...label.pairs };
    }
    if (kustomization.namespace !== undefined) resource.metadata.namespace = kustomization.namespace;
    for (const container of containersOf(resource))
      container.image = newImage(container.image, kustomization.images);
  }
  return resources;
}

function readDocuments(file: string): unknown[] {
  return parseAllDocuments(fs.readFileSync(file, "utf8")).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    return document.toJSON() as unknown;
  });
}

/** The containers of a workload's pod template (Deployment, StatefulSet, DaemonSet, Job). */
function containersOf(resource: Resource): { image: string }[] {
  const spec = resource.spec as { template?: { spec?: Record<string, unknown> } } | undefined;
  const pod = spec?.template?.spec;
  if (pod === undefined) return [];
  return [
    ...((pod.initContainers as { image: string }[]) ?? []),
    ...((pod.containers as { image: string }[]) ?? []),
  ];
}

function newImage(image: string, images: Kustomization["images"]): string {
  // A tag is after the last colon that follows the last slash (a registry may have a port).
  const match = /^(.*?)(?::([^:/]+))?$/.exec(image)!;
  const name = match[1]!;
  const tag = match[2];
  const rule = images?.find((candidate) => candidate.name === name);
  if (rule === undefined) return image;
  const newTag = rule.newTag ?? tag;
  return `${rule.newName ?? name}${newTag === undefined ? "" : `:${newTag}`}`;
}
