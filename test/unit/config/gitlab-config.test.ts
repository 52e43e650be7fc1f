import { describe, expect, it } from "@jest/globals";
import { GitLabConfigSchema } from "../../../src/config/gitlab-config.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

const SECRET = "s".repeat(32);
const FULL = {
  GITLAB_URL: "https://gitlab.example.com/",
  GITLAB_TOKEN: "glpat-abc",
  GITLAB_WEBHOOK_SECRET: SECRET,
};

describe("GitLab's settings", () => {
  it("are off with none of the three, on with all of them", () => {
    expect(settingsOf(GitLabConfigSchema, {})).toBeNull();
    expect(settingsOf(GitLabConfigSchema, FULL)).toEqual({
      url: "https://gitlab.example.com",
      token: "glpat-abc",
      webhookSecret: SECRET,
      statusName: "Loupe",
      configProject: null,
    });
  });

  it("takes GITLAB_CONFIG_PROJECT as a project's full path, and refuses anything else in one line", () => {
    expect(
      settingsOf(GitLabConfigSchema, { ...FULL, GITLAB_CONFIG_PROJECT: " acme/platform/loupe-settings " }),
    ).toMatchObject({
      configProject: "acme/platform/loupe-settings",
    });
    expect(settingsOf(GitLabConfigSchema, { ...FULL, GITLAB_CONFIG_PROJECT: "" })).toMatchObject({
      configProject: null,
    });
    for (const value of ["loupe-settings", "acme/", "/acme/x", "acme/x?ref=draft", "acme/../x y"])
      expect(settingsError(GitLabConfigSchema, { ...FULL, GITLAB_CONFIG_PROJECT: value })).toContain(
        "GITLAB_CONFIG_PROJECT=",
      );
  });

  it("names what is missing when only some are set", () => {
    expect(settingsError(GitLabConfigSchema, { GITLAB_URL: FULL.GITLAB_URL })).toContain(
      "GITLAB_TOKEN and GITLAB_WEBHOOK_SECRET are required with GITLAB_URL",
    );
    expect(settingsError(GitLabConfigSchema, { ...FULL, GITLAB_TOKEN: "" })).toContain(
      "GITLAB_TOKEN is required with GITLAB_URL and GITLAB_WEBHOOK_SECRET",
    );
  });

  it.each([["gitlab.example.com"], ["ftp://gitlab.example.com"], ["https://user:pw@gitlab.example.com"]])(
    "refuses GITLAB_URL=%j in one line naming it",
    (value) => {
      expect(settingsError(GitLabConfigSchema, { ...FULL, GITLAB_URL: value })).toContain("GITLAB_URL=");
    },
  );

  it.each([["https://gitlab.example.com/api/v4"], ["https://gitlab.example.com/gitlab/api/v4/"]])(
    "names GITLAB_URL=%j as the API's address, not the instance's",
    (value) => {
      expect(settingsError(GitLabConfigSchema, { ...FULL, GITLAB_URL: value })).toContain(
        "ends in /api/v4: set the instance's address without it",
      );
    },
  );

  it("refuses a short webhook secret and a token with spaces, never showing either", () => {
    const short = settingsError(GitLabConfigSchema, { ...FULL, GITLAB_WEBHOOK_SECRET: "tiny-secret" });
    expect(short).toContain("GITLAB_WEBHOOK_SECRET is shorter than 16 characters");
    expect(short).not.toContain("tiny-secret");
    const spaced = settingsError(GitLabConfigSchema, { ...FULL, GITLAB_TOKEN: "glpat abc" });
    expect(spaced).toContain("GITLAB_TOKEN must be at most 500 printable characters without spaces");
    expect(spaced).not.toContain("glpat abc");
  });
});
