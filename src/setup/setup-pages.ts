// The setup flow's HTML pages: plain, self-contained (no scripts, no external assets), every
// interpolated value escaped. The register page carries the manifest in a form that posts to
// GitHub, exactly as GitHub's manifest flow expects.

import { WEBHOOK_PATH } from "../config/webhook-target.ts";
import type { RegisteredApp } from "./manifest-conversion.ts";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code,pre{background:#f3f3f3;padding:.1rem .3rem}pre{padding:.6rem;overflow:auto}.problem{color:#a00}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;
}

/** The organisation field: empty registers the App on the operator's personal account. */
function orgField(org: string | null): string {
  return `<label>Organisation (empty: your personal account; you must own it) <input name="org" size="20" placeholder="octo-org" value="${escapeHtml(org ?? "")}"></label>`;
}

export interface AskPageInput {
  readonly problem: string | null;
  /** GH_ORG, to fill the organisation field with. */
  readonly org: string | null;
  /** What the operator typed already, kept in the form when only the organisation was wrong. */
  readonly publicUrl?: string | null;
}

export function askPublicUrlPage(input: AskPageInput): string {
  const { problem, publicUrl } = input;
  return page(
    "Register Loupe as a GitHub App",
    `<p>GitHub sends the App's webhooks to <code>&lt;public URL&gt;${WEBHOOK_PATH}</code>, so it needs
the public https URL at which it can reach this server (or the proxy in front of it).
<code>localhost</code> will not do.</p>
${problem === null ? "" : `<p class="problem">${escapeHtml(problem)}</p>`}
<form method="get" action="/">
<p><label>Public URL of this server <input name="public_url" type="url" size="40" placeholder="https://loupe.example.com" value="${escapeHtml(publicUrl ?? "")}" required></label></p>
<p>${orgField(input.org)}</p>
<button type="submit">Continue</button>
</form>
<p>Or set it for good and restart: <code>LOUPE_PUBLIC_URL=https://loupe.example.com</code>. For local
development without a public URL, create a channel at <a href="https://smee.io/new">smee.io/new</a>,
set <code>WEBHOOK_PROXY_URL</code> to it and restart: Loupe forwards what arrives there to itself.</p>`,
  );
}

export interface RegisterPageInput {
  readonly createAppUrl: string;
  readonly manifest: Record<string, unknown>;
  readonly hookUrl: string;
  readonly org: string | null;
  readonly viaProxy: boolean;
  /** The public URL typed on the previous page, carried along when the owner is changed. */
  readonly typedPublicUrl: string | null;
}

/** Changing the owner reloads this page with the same public URL and the organisation typed. */
function ownerForm(input: RegisterPageInput): string {
  const url = input.typedPublicUrl;
  return `<form method="get" action="/">
${url === null ? "" : `<input type="hidden" name="public_url" value="${escapeHtml(url)}">`}
${orgField(input.org)} <button type="submit">Change the owner</button>
</form>`;
}

export function registerPage(input: RegisterPageInput): string {
  const owner = input.org === null ? "your personal account" : `the organisation ${input.org}`;
  return page(
    "Register Loupe as a GitHub App",
    `<p>This registers a new GitHub App on <strong>${escapeHtml(owner)}</strong>
with Loupe's events and permissions. GitHub will send its webhooks to:</p>
<pre>${escapeHtml(input.hookUrl)}</pre>
${input.viaProxy ? "<p>That is your <code>WEBHOOK_PROXY_URL</code> channel: keep it set so Loupe forwards what arrives there.</p>" : ""}
${ownerForm(input)}
<p>GitHub lets you change the App's name (it must be unique) before you create it, then sends you
back here, and Loupe writes the App's id, private key and webhook secret to <code>.env</code>.</p>
<form method="post" action="${escapeHtml(input.createAppUrl)}">
<input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(input.manifest))}">
<button type="submit">Register the GitHub App</button>
</form>`,
  );
}

export function registeredPage(app: RegisteredApp, envFile: string): string {
  const install = `${app.html_url}/installations/new`;
  return page(
    `Registered ${app.name}`,
    `<p>The GitHub App <a href="${escapeHtml(app.html_url)}">${escapeHtml(app.name)}</a> (id ${app.id}) exists.
Its id, private key and webhook secret are in <code>${escapeHtml(envFile)}</code>
(<code>APP_ID</code>, <code>PRIVATE_KEY</code>, <code>WEBHOOK_SECRET</code>): keep that file private.</p>
<h2>Next</h2>
<ol>
<li>Choose the model provider: add to <code>.env</code> (or the environment)
<pre>OPENAI_BASE_URL=https://api.openai.com/v1
OPENAI_API_KEY=sk-...
REVIEW_MODEL=gpt-4.1-mini</pre>
<code>OPENAI_BASE_URL</code> has no default; docs/providers.md in Loupe's repository lists other endpoints.</li>
<li>Restart Loupe (<code>npm start</code>): it now runs the App, and stops with a message if something is missing.</li>
<li>Install the App on the repositories it should review:
<a href="${escapeHtml(install)}">${escapeHtml(install)}</a>. Each pull request then gets a check run and a review.</li>
</ol>`,
  );
}

export function notSavedPage(app: RegisteredApp, envFile: string, reason: string): string {
  return page(
    `Registered ${app.name}, but the credentials were not saved`,
    `<p class="problem">${escapeHtml(envFile)} could not be written: ${escapeHtml(reason)}</p>
<p>The GitHub App <a href="${escapeHtml(app.html_url)}">${escapeHtml(app.name)}</a> exists (id ${app.id}).
To finish by hand, on its settings page generate a private key and set a new webhook secret, then
set <code>APP_ID=${app.id}</code>, <code>PRIVATE_KEY_PATH</code> (the downloaded key) and
<code>WEBHOOK_SECRET</code> in Loupe's environment.</p>`,
  );
}

export function problemPage(title: string, problem: string): string {
  return page(title, `<p class="problem">${escapeHtml(problem)}</p><p><a href="/">Start again</a></p>`);
}

export function alreadyRegisteredPage(envFile: string): string {
  return page(
    "Loupe is registered",
    `<p>The App's credentials are in <code>${escapeHtml(envFile)}</code>. Set the provider
(<code>OPENAI_BASE_URL</code>, <code>OPENAI_API_KEY</code>, <code>REVIEW_MODEL</code>) and restart Loupe.</p>`,
  );
}
