// GitLab, the second forge (docs/gitlab.md): the instance's URL, a bot user's access token with the
// `api` scope, and the secret GitLab sends in X-Gitlab-Token with each webhook. All three, or none
// (GitLab off). Each problem is one line naming its setting; a secret's value is never shown.
// GITLAB_STATUS_NAME: the name of Loupe's commit status on the merge request's head.
// GITLAB_CONFIG_PROJECT: the project whose loupe.yml is the organisation's settings layer.

import * as v from "valibot";
import { shown, tokenVar } from "./env-fields.ts";
import { MIN_WEBHOOK_SECRET } from "./server-config.ts";

function isInstanceUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return ["http:", "https:"].includes(url.protocol) && url.username === "" && url.search === "";
}

const NAMES = ["GITLAB_URL", "GITLAB_TOKEN", "GITLAB_WEBHOOK_SECRET"] as const;

export const GitLabConfigSchema = v.pipe(
  v.object({
    GITLAB_URL: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check(
          isInstanceUrl,
          (issue) =>
            `GITLAB_URL=${shown(issue.input)} is not an http(s) URL without credentials or query: set the instance's address, e.g. https://gitlab.example.com`,
        ),
        v.check(
          (text) => !/\/api\/v4\/*$/.test(text),
          (issue) =>
            `GITLAB_URL=${shown(issue.input)} ends in /api/v4: set the instance's address without it, e.g. https://gitlab.example.com (Loupe adds /api/v4 itself)`,
        ),
        v.transform((text) => text.replace(/\/+$/, "")),
      ),
    ),
    GITLAB_TOKEN: tokenVar(
      "GITLAB_TOKEN",
      500,
      "set a bot user's personal, project or group access token with the api scope",
    ),
    GITLAB_WEBHOOK_SECRET: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.minLength(
          MIN_WEBHOOK_SECRET,
          `GITLAB_WEBHOOK_SECRET is shorter than ${MIN_WEBHOOK_SECRET} characters, so a sender could guess it: ` +
            "generate one with `openssl rand -hex 32` and enter the same value as the webhook's secret token",
        ),
      ),
    ),
    GITLAB_STATUS_NAME: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(255)), "Loupe"),
    GITLAB_CONFIG_PROJECT: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check(
          (path) => path === "" || /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/.test(path),
          (issue) =>
            `GITLAB_CONFIG_PROJECT=${shown(issue.input)} is not a project path: set the full path of the project that holds the organisation's loupe.yml, e.g. acme/loupe-settings`,
        ),
        v.maxLength(255, "GITLAB_CONFIG_PROJECT is longer than 255 characters: set a project's full path"),
      ),
    ),
  }),
  v.check(
    (env) => NAMES.every((name) => env[name] === undefined) || NAMES.every((name) => env[name] !== undefined),
    (issue) => {
      const env = issue.input as Record<(typeof NAMES)[number], unknown>;
      const missing = NAMES.filter((name) => env[name] === undefined);
      return `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} required with ${NAMES.filter((n) => !missing.includes(n)).join(" and ")}: set all three to review GitLab merge requests (docs/gitlab.md), or none`;
    },
  ),
  v.transform((env) =>
    env.GITLAB_URL === undefined || env.GITLAB_TOKEN === undefined || env.GITLAB_WEBHOOK_SECRET === undefined
      ? null
      : {
          url: env.GITLAB_URL,
          token: env.GITLAB_TOKEN,
          webhookSecret: env.GITLAB_WEBHOOK_SECRET,
          statusName: env.GITLAB_STATUS_NAME,
          /** The project whose loupe.yml is every project's organisation layer; null: none. */
          configProject:
            env.GITLAB_CONFIG_PROJECT === undefined || env.GITLAB_CONFIG_PROJECT === ""
              ? null
              : env.GITLAB_CONFIG_PROJECT,
        },
  ),
);

/** null: GitLab is not configured. */
export type GitLabConfig = v.InferOutput<typeof GitLabConfigSchema>;
