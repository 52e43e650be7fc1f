// The Kubernetes manifests under deploy/kubernetes, rendered in-process as kustomize renders them
// and validated against Kubernetes' own schemas (kubernetes-models, generated from the API's
// OpenAPI) and KEDA's (its CRDs); then held to what Loupe needs of them: the probes on /readyz and
// /healthz, a termination grace that outlasts SHUTDOWN_GRACE_SECONDS, a disruption budget that
// never blocks a drain, secrets kept in the Secret, and autoscaling on the queue's backlog
// through loupe_queue_jobs — not on a Redis list, which does not see prioritised jobs.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "@jest/globals";
import { ScaledObject } from "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { StatefulSet } from "kubernetes-models/apps/v1/StatefulSet";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { AppSettingsSchema } from "../../../src/config/app-settings.ts";
import { type Resource, renderKustomization } from "../../support/kustomize.ts";
import { PROJECT_ROOT } from "../../support/loupe-process.ts";

const BASE = path.join(PROJECT_ROOT, "deploy/kubernetes/base");
const WITH_REDIS = path.join(PROJECT_ROOT, "deploy/kubernetes/overlays/with-redis");

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "keda.sh/v1alpha1/ScaledObject": ScaledObject,
};

function validate(resource: Resource): void {
  const Model = MODELS[`${resource.apiVersion}/${resource.kind}`];
  if (Model === undefined) throw new Error(`no schema for ${resource.apiVersion} ${resource.kind}`);
  new Model(resource as never).validate();
}

// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are free-form YAML, read field by field.
type Manifest = Resource & Record<string, any>;

const find = (resources: Resource[], kind: string, name: string): Manifest => {
  const found = resources.find((r) => r.kind === kind && r.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind}/${name}`);
  return found as Manifest;
};

describe("deploy/kubernetes", () => {
  const base = renderKustomization(BASE);
  const tryOut = renderKustomization(WITH_REDIS);

  it("renders the base and the overlay to resources Kubernetes' and KEDA's schemas accept", () => {
    expect(base.map((r) => r.kind).toSorted()).toEqual([
      "ConfigMap",
      "Deployment",
      "PodDisruptionBudget",
      "ScaledObject",
      "Secret",
      "Service",
    ]);
    for (const resource of [...base, ...tryOut]) validate(resource);
    expect(
      tryOut
        .filter((r) => r.metadata.name === "redis")
        .map((r) => r.kind)
        .toSorted(),
    ).toEqual(["Service", "StatefulSet"]);
  });

  it("a schema refuses what Kubernetes would refuse (the validation can fail)", () => {
    const deployment = structuredClone(find(base, "Deployment", "loupe"));
    deployment.spec.template.spec.containers[0].ports[0].containerPort = "3000";
    expect(() => validate(deployment)).toThrow(/containerPort must be integer/);
    const scaled = structuredClone(find(base, "ScaledObject", "loupe"));
    delete scaled.spec.scaleTargetRef;
    expect(() => validate(scaled)).toThrow(/scaleTargetRef/);
  });

  it("probes /readyz and /healthz, and outlasts the shutdown's grace and deadline", () => {
    const pod = find(base, "Deployment", "loupe").spec.template.spec;
    const container = pod.containers[0];
    expect(container.readinessProbe.httpGet).toMatchObject({ path: "/readyz", port: "http" });
    expect(container.livenessProbe.httpGet).toMatchObject({ path: "/healthz", port: "http" });
    expect(container.ports[0]).toEqual({ name: "http", containerPort: 3000 });
    const settings = find(base, "ConfigMap", "loupe-settings").data;
    // Loupe exits by the grace + 8 s (docs/shutdown.md): the kubelet waits longer than that.
    expect(pod.terminationGracePeriodSeconds).toBe(Number(settings.SHUTDOWN_GRACE_SECONDS) + 10);
    expect(find(base, "Deployment", "loupe").metadata.labels).toMatchObject({
      "app.kubernetes.io/name": "loupe",
    });
    expect(container.image).toBe("loupe:latest");
  });

  it("keeps the keys in the Secret, the rest in a ConfigMap that Loupe's own settings schema accepts", () => {
    const settings = find(base, "ConfigMap", "loupe-settings").data as Record<string, string>;
    const secret = find(base, "Secret", "loupe-secrets").stringData as Record<string, string>;
    expect(Object.keys(secret).toSorted()).toEqual(["OPENAI_API_KEY", "WEBHOOK_SECRET", "loupe.pem"]);
    for (const name of Object.keys(settings)) expect(name).not.toMatch(/KEY|SECRET|TOKEN|PASSWORD/);
    const env = fs.readFileSync(path.join(PROJECT_ROOT, ".env.example"), "utf8");
    for (const name of Object.keys(settings)) expect(env).toContain(`${name}=`);
    // With a real key in place of the placeholder, the settings parse as a replica would read them.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-k8s-"));
    const result = AppSettingsSchema["~standard"].validate({
      ...settings,
      WEBHOOK_SECRET: secret.WEBHOOK_SECRET!,
      OPENAI_API_KEY: secret.OPENAI_API_KEY!,
      PRIVATE_KEY_PATH: path.join(dir, "absent.pem"),
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect("issues" in result && result.issues).toBe(false);
    const env1 = find(base, "Deployment", "loupe").spec.template.spec.containers[0].env;
    expect(env1.find((e: { name: string }) => e.name === "OPENAI_API_KEY").valueFrom.secretKeyRef).toEqual({
      name: "loupe-secrets",
      key: "OPENAI_API_KEY",
    });
  });

  it("never blocks a drain: one ready replica at a time, and no wait on one that is not ready", () => {
    const budget = find(base, "PodDisruptionBudget", "loupe").spec;
    expect(budget.maxUnavailable).toBe(1);
    expect(budget.minAvailable).toBeUndefined();
    expect(budget.unhealthyPodEvictionPolicy).toBe("AlwaysAllow");
    const pods = find(base, "Deployment", "loupe").spec.selector.matchLabels;
    expect(budget.selector.matchLabels).toEqual(pods);
  });

  it("scales on loupe_queue_jobs (waiting, prioritised included), never on a Redis list", () => {
    const scaled = find(base, "ScaledObject", "loupe").spec;
    expect(scaled.scaleTargetRef).toEqual({ name: "loupe" });
    expect(scaled.triggers.map((t: { type: string }) => t.type)).toEqual(["prometheus"]);
    const { query, threshold } = scaled.triggers[0].metadata;
    expect(query).toContain('max(loupe_queue_jobs{state="waiting"})');
    expect(query).toContain('sum(loupe_queue_jobs{state="running"})');
    const settings = find(base, "ConfigMap", "loupe-settings").data;
    expect(threshold).toBe(settings.REVIEW_CONCURRENCY);
    expect(scaled.minReplicaCount).toBeGreaterThanOrEqual(2);
  });

  it("points the base at an external Redis, and the overlay's at one that keeps its data", () => {
    expect(find(base, "ConfigMap", "loupe-settings").data.REDIS_URL).toBe("redis://redis:6379");
    const redis = find(tryOut, "StatefulSet", "redis").spec.template.spec.containers[0];
    expect(redis.args).toEqual(["--appendonly", "yes", "--maxmemory-policy", "noeviction"]);
    expect(find(tryOut, "Service", "redis").spec.ports[0].port).toBe(6379);
  });
});
