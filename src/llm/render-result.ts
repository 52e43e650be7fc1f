// What a person reads after `loupe review --format markdown`: rendered in src/review/ by the same
// inert Markdown writer as everything Loupe publishes (its output is often pasted into GitHub).

export { renderCliMarkdown as renderResultMarkdown } from "../review/render-cli.ts";
