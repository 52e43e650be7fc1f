// The in-process renderer of kustomizations the manifest test uses: what it renders as kustomize
// does (resources from files and directories, labels on metadata only, images, namespace), and
// what it refuses by name instead of skipping.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "@jest/globals";
import { renderKustomization } from "../../support/kustomize.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-kustomize-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

const WORKLOAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: web
          image: registry.local:5000/team/web:1.0
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: { app: web }
`;

it("renders files and directories, labels on metadata only, images and the namespace", () => {
  const root = tree({
    "base/kustomization.yaml":
      "resources: [web.yaml]\nlabels:\n  - pairs: { team: blue }\nimages:\n  - name: registry.local:5000/team/web\n    newTag: '2.0'\n",
    "base/web.yaml": WORKLOAD,
    "overlay/kustomization.yaml": "namespace: trial\nresources: [../base, extra.yaml]\n",
    "overlay/extra.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata: { a: b }\n",
  });
  // biome-ignore lint/suspicious/noExplicitAny: rendered manifests are free-form YAML, read field by field.
  const rendered = renderKustomization(path.join(root, "overlay")) as Record<string, any>[];
  expect(rendered.map((r) => `${r.kind}/${r.metadata.name}/${r.metadata.namespace}`)).toEqual([
    "Deployment/web/trial",
    "Service/web/trial",
    "ConfigMap/extra/trial",
  ]);
  const [deployment, service, extra] = rendered;
  expect(deployment!.metadata.labels).toEqual({ team: "blue" });
  expect(deployment!.spec.selector.matchLabels).toEqual({ app: "web" });
  expect(deployment!.spec.template.metadata.labels).toEqual({ app: "web" });
  expect(deployment!.spec.template.spec.containers[0].image).toBe("registry.local:5000/team/web:2.0");
  expect(service!.spec.selector).toEqual({ app: "web" });
  expect(extra!.metadata.labels).toBeUndefined();
});

it("refuses what it does not render, and a resource defined twice", () => {
  const patched = tree({
    "kustomization.yaml": "resources: [web.yaml]\npatches:\n  - path: p.yaml\n",
    "web.yaml": WORKLOAD,
  });
  expect(() => renderKustomization(patched)).toThrow(/"patches" is not rendered here/);
  const selectors = tree({
    "kustomization.yaml": "resources: [web.yaml]\nlabels:\n  - pairs: { a: b }\n    includeSelectors: true\n",
    "web.yaml": WORKLOAD,
  });
  expect(() => renderKustomization(selectors)).toThrow(/selectors or templates are not rendered/);
  const twice = tree({ "kustomization.yaml": "resources: [web.yaml, web.yaml]\n", "web.yaml": WORKLOAD });
  expect(() => renderKustomization(twice)).toThrow(/Deployment\/web is defined twice/);
});
