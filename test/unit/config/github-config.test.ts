import { describe, expect, it } from "@jest/globals";
import { GitHubConfigSchema } from "../../../src/config/github-config.ts";
import { settingsError, settingsOf } from "../../support/settings.ts";

describe("the App's GitHub settings", () => {
  it("spaces writes 1000 ms apart by default, as Probot does", () => {
    expect(settingsOf(GitHubConfigSchema, {})).toEqual({ writeSpacingMs: 1000 });
    expect(settingsOf(GitHubConfigSchema, { GITHUB_WRITE_SPACING_MS: " " })).toEqual({
      writeSpacingMs: 1000,
    });
  });

  it("takes a spacing from 0 to 60000 ms", () => {
    expect(settingsOf(GitHubConfigSchema, { GITHUB_WRITE_SPACING_MS: "0" })).toEqual({ writeSpacingMs: 0 });
    expect(settingsOf(GitHubConfigSchema, { GITHUB_WRITE_SPACING_MS: "250" })).toEqual({
      writeSpacingMs: 250,
    });
    expect(settingsOf(GitHubConfigSchema, { GITHUB_WRITE_SPACING_MS: "60000" })).toEqual({
      writeSpacingMs: 60_000,
    });
  });

  it.each([["-1"], ["60001"], ["1s"], ["0.5"]])("refuses GITHUB_WRITE_SPACING_MS=%j", (value) => {
    expect(settingsError(GitHubConfigSchema, { GITHUB_WRITE_SPACING_MS: value })).toContain(
      `GITHUB_WRITE_SPACING_MS="${value}" is not an integer from 0 to 60000: set one, or unset GITHUB_WRITE_SPACING_MS for 1000`,
    );
  });
});
