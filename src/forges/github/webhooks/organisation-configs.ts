// The App's copy of each organisation's `.github/loupe.yml`: kept per installation for
// ORG_CONFIG_TTL_SECONDS (github/organisation-config-cache.ts), and forgotten when GitHub says a
// push reached `<owner>/.github`'s default branch (webhooks/organisation-push.ts). Any other push
// is counted as ignored, like every event Loupe does not act on.

import type { Probot } from "probot";
import type { AppConfig } from "../../../config/app-config.ts";
import type { Metrics } from "../../../metrics/metrics.ts";
import { createOrganisationConfigCache, type OrganisationConfigCache } from "../organisation-config-cache.ts";
import { organisationConfigPush, type PushPayload } from "./organisation-push.ts";

const caches = new WeakMap<object, OrganisationConfigCache>();

/**
 * The one cache of an App's configuration: the review runner reads through it and the push
 * handler forgets from it, so both ask for it by the configuration they were given.
 */
export function organisationConfigsFor(
  config: Pick<AppConfig, "organisationConfigTtlMs">,
  now: (() => number) | undefined,
): OrganisationConfigCache {
  let cache = caches.get(config);
  if (cache === undefined) {
    cache = createOrganisationConfigCache({ ttlMs: config.organisationConfigTtlMs, now: now ?? Date.now });
    caches.set(config, cache);
  }
  return cache;
}

/** Forgets the organisation's file of the App's cache (organisationConfigsFor) on a push to it. */
export function organisationPushHandler(
  options: { readonly config: Pick<AppConfig, "organisationConfigTtlMs">; readonly now?: () => number },
  metrics: Pick<Metrics, "webhookDelivery">,
  log: Probot["log"],
) {
  const cache = organisationConfigsFor(options.config, options.now);
  return async (context: { readonly payload: PushPayload }): Promise<void> => {
    const pushed = organisationConfigPush(context.payload);
    if (pushed === null) {
      metrics.webhookDelivery("push", "ignored");
      return;
    }
    cache.invalidate(pushed);
    log.info({ owner: pushed.owner, installationId: pushed.installationId }, "organisation settings changed");
  };
}
