// What to check after a provider failure, in one or two sentences for the check run and the CLI:
// the host the operator configured, the HTTP status or the network failure, and the setting to
// look at. Built from Loupe's classification only, never from the provider's body.

import type { TerminationReason } from "../domain/outcome.ts";
import { ENVIRONMENT_NAMES, type SettingNames, settingCode } from "../domain/setting-names.ts";
import type { ProviderFailureDetail, ProviderOutcome } from "./provider.ts";

/** The operator-facing facts of a failed provider outcome, when the client knows its host. */
export function failureDetail(outcome: ProviderOutcome): ProviderFailureDetail | undefined {
  if (outcome.kind !== "failure" || outcome.host === undefined) return undefined;
  return {
    host: outcome.host,
    ...(outcome.status === undefined ? {} : { status: outcome.status }),
    ...(outcome.network === undefined ? {} : { network: outcome.network }),
    ...(outcome.answer === undefined ? {} : { answer: outcome.answer }),
    ...(outcome.waitedSeconds === undefined ? {} : { waited_seconds: outcome.waitedSeconds }),
  };
}

const NETWORK_TEXT = {
  connection_refused: (host: string, url: string) =>
    `The connection to \`${host}\` was refused: check that ${url} names the right host and port, and that the provider is running and reachable from Loupe.`,
  dns: (host: string, url: string) =>
    `The host name \`${host}\` could not be resolved (DNS): check the host in ${url} and Loupe's DNS.`,
  connection_reset: (host: string, _url: string) =>
    `The connection to \`${host}\` was reset before an answer arrived: check the provider or any proxy in between, then re-run.`,
  unreachable: (host: string, url: string) =>
    `The network has no route to \`${host}\`: check ${url} and the network between Loupe and the provider.`,
  tls: (host: string, url: string) =>
    `The TLS handshake with \`${host}\` failed (certificate or protocol): check that ${url} uses the right scheme and that the certificate is trusted.`,
} as const;

const NOT_JSON_TEXT = {
  html: (host: string, status: number, url: string) =>
    `The provider at \`${host}\` answered HTTP ${status} with an HTML page, not an API's JSON: check that ${url} is the API root (usually ending in \`/v1\`), not a website, a login page or a proxy's page.`,
  not_json: (host: string, status: number, url: string) =>
    `The provider at \`${host}\` answered HTTP ${status} with a body that is not JSON: check that ${url} is an OpenAI-compatible chat-completions API root (usually ending in \`/v1\`).`,
} as const;

export function providerFailureHint(
  reason: TerminationReason,
  detail: ProviderFailureDetail,
  names: SettingNames = ENVIRONMENT_NAMES,
): string | null {
  const host = detail.host;
  const url = settingCode(names, "OPENAI_BASE_URL", "the provider's base URL");
  const model = settingCode(names, "REVIEW_MODEL", "the model");
  if (detail.network !== undefined) return NETWORK_TEXT[detail.network](host, url);
  if (detail.answer !== undefined) return NOT_JSON_TEXT[detail.answer](host, detail.status ?? 200, url);
  if (reason === "review_timeout" && detail.waited_seconds !== undefined) {
    return `The provider at \`${host}\` sent no answer in ${detail.waited_seconds} s: check that it is running and serving ${model} (a local server may still be loading the model) and that ${url} names it; raise ${settingCode(names, "REVIEW_TIMEOUT_MS", "the review's time limit")} only if it is merely slow.`;
  }
  const status = detail.status;
  if (status === undefined) {
    return reason === "provider_unavailable"
      ? `The provider at \`${host}\` could not be reached: check ${url} and the provider's status.`
      : null;
  }
  const answered = `The provider at \`${host}\` answered HTTP ${status}`;
  if (status === 404) {
    return `${answered} for the chat-completions URL: check ${url} (the API root, usually ending in \`/v1\`; Loupe adds \`/chat/completions\`) and ${model} (a model this provider serves).`;
  }
  if (status === 400 || status === 422) {
    return `${answered}: it refused the request as sent. Check that ${model} exists on this provider and supports tool calling, and that ${url} is an OpenAI-compatible chat-completions API.`;
  }
  if (status === 401 || status === 403)
    return `${answered}: check ${settingCode(names, "OPENAI_API_KEY", "the API key")} (and that it is allowed to use ${model}).`;
  if (status === 429)
    return `${answered}: it is rate-limiting Loupe's key; wait, or raise the provider's limit.`;
  return `${answered} after Loupe's retries${retries(names)}: check the provider's status, then re-run.`;
}

const retries = (names: SettingNames) => {
  const name = settingCode(names, "OPENAI_MAX_RETRIES");
  return name === "" ? "" : ` (${name})`;
};
