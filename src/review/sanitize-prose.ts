// The prose half of the sanitiser. After it, prose holds no `<` (so no HTML, HTML block or
// autolink), no `&` that could spell an entity, no bare backtick, no `@` or `#` that GitHub
// would turn into a mention or a cross-reference, no image, and no clickable link that leaves
// the repository.

import { inlineCode } from "./markdown-text.ts";

export interface RepositoryRef {
  readonly owner: string;
  readonly repo: string;
  readonly host: string;
}

const AUTOLINK = /<((?:https?:\/\/|www\.)[^\s<>]*)>/gi;
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const HTML_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;
const IMAGE = /!\[[^\]\n]*\]\([^)\n]*\)/g;
const LINK = /\[([^[\]\n]*)\]\(\s*([^()\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const BARE_URL = /(?:https?:\/\/|www\.)[^\s<>`'"()[\]|\u0000]+/gi;
const PLACEHOLDER = /\u0000(\d+)\u0000/g;

/** Links GitHub may keep clickable: same host, inside the repository, not an issue or PR. */
export function isRepositoryUrl(url: string, repository: RepositoryRef): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.toLowerCase().startsWith("www.") ? `https://${url}` : url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") return false;
  if (parsed.port !== "" || parsed.hostname.toLowerCase() !== repository.host.toLowerCase()) return false;
  const prefix = `/${repository.owner}/${repository.repo}`.toLowerCase();
  const path = parsed.pathname.toLowerCase();
  if (path !== prefix && !path.startsWith(`${prefix}/`)) return false;
  // Links to issues, pull requests and discussions add a cross-reference to their timeline.
  return !/^\/(?:issues|pull|pulls|discussions)(?:\/|$)/.test(path.slice(prefix.length));
}

export function sanitizeProse(input: string, repository: RepositoryRef): string {
  const protectedParts: string[] = [];
  const protect = (markdown: string) => `\u0000${protectedParts.push(markdown) - 1}\u0000`;
  const shownUrl = (url: string) => inlineCode(url.replace(/&amp;/g, "&"));
  const urlPart = (url: string) => protect(isRepositoryUrl(url, repository) ? url : shownUrl(url));

  let text = input.replace(/\u0000/g, "").replace(/&/g, "&amp;");
  text = text.replace(AUTOLINK, (_m, url: string) => urlPart(url));
  text = text.replace(HTML_COMMENT, "").replace(HTML_TAG, "").replace(/</g, "&lt;");
  text = text.replace(IMAGE, "");
  text = text.replace(LINK, (_m, label: string, url: string) => {
    const shown = neutralise(label);
    if (isRepositoryUrl(url, repository)) return protect(`[${shown}](${url})`);
    return `${shown} (${protect(shownUrl(url))})`;
  });
  // Whatever link syntax is left (nested brackets, reference links) must not become a link.
  text = text.replace(/\]\(/g, "]\\(").replace(/^( {0,3})\[/gm, "$1\\[");
  text = text.replace(BARE_URL, (match) => {
    const trimmed = match.replace(/[.,:;!?*_~]+$/, "");
    return urlPart(trimmed) + match.slice(trimmed.length);
  });
  text = neutralise(text);
  // An indented tilde fence would open a code block GitHub sees and this sanitiser did not.
  text = text.replace(/^( {1,3})~/gm, "$1&#126;");
  // Protected parts can nest (an autolink inside a kept link's label): restore until none left.
  for (let depth = 0; depth < 4 && text.includes("\u0000"); depth++) {
    text = text.replace(PLACEHOLDER, (_m, index: string) => protectedParts[Number(index)]!);
  }
  return text;
}

function neutralise(text: string): string {
  return text
    .replace(/@(?=[A-Za-z0-9_-])/g, "\uFF20") // ＠ never mentions anyone
    .replace(/#(?=\d)/g, "\uFF03") // ＃ never links an issue
    .replace(/\b(GH)-(?=\d)/gi, "$1\u2011") // non-breaking hyphen: "GH‑123" is not a reference
    .replace(/`/g, "&#96;");
}
