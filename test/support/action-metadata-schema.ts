// GitHub's action metadata (action.yml) for a JavaScript action, as GitHub documents it
// ("Metadata syntax for GitHub Actions"): a name and description, inputs with a description and an
// optional `required` and `default`, outputs with a description, `runs` on a Node runtime with its
// `main` (and optional `pre`/`post` scripts and their conditions), and the Marketplace branding.
// Strict objects: a misspelt key is an error here, where GitHub would silently ignore it.

import * as v from "valibot";

const ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const text = v.pipe(v.string(), v.nonEmpty());

/** The colours the Marketplace badge may take. */
export const BRANDING_COLORS = [
  "white",
  "black",
  "yellow",
  "blue",
  "green",
  "orange",
  "red",
  "purple",
  "gray-dark",
] as const;

export const ActionInput = v.strictObject({
  description: text,
  required: v.optional(v.boolean()),
  default: v.optional(v.string()),
  deprecationMessage: v.optional(text),
});

export const ActionOutput = v.strictObject({ description: text });

export const ActionMetadata = v.strictObject({
  name: text,
  author: v.optional(text),
  description: text,
  inputs: v.optional(v.record(v.pipe(v.string(), v.regex(ID)), ActionInput)),
  outputs: v.optional(v.record(v.pipe(v.string(), v.regex(ID)), ActionOutput)),
  runs: v.strictObject({
    using: v.picklist(["node20", "node24"]),
    main: text,
    pre: v.optional(text),
    "pre-if": v.optional(text),
    post: v.optional(text),
    "post-if": v.optional(text),
  }),
  branding: v.optional(
    v.strictObject({
      icon: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/))),
      color: v.optional(v.picklist(BRANDING_COLORS)),
    }),
  ),
});
