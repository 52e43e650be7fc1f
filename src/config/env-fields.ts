// The building blocks of the operator's settings schemas: one environment variable each, read
// from its text, with its default in the schema and one error line that names the variable, says
// what is wrong with the value and how to fix it. A secret's value is never shown in its line.

import * as v from "valibot";

export type Env = Readonly<Record<string, string | undefined>>;

/** A value as an error line shows it: quoted, one line, cut so a pasted file cannot flood the log. */
export function shown(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

const INTEGER = /^[0-9]+$/;

function integerText(name: string, min: number, max: number, fallback: string) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => INTEGER.test(text) && Number(text) >= min && Number(text) <= max,
      (issue) => `${name}=${shown(issue.input)} is not an integer from ${min} to ${max}: set one${fallback}`,
    ),
    v.transform(Number),
  );
}

/** An integer from `min` to `max`; unset, `fallback`. */
export function integerVar(name: string, min: number, max: number, fallback: number) {
  return v.optional(integerText(name, min, max, `, or unset ${name} for ${fallback}`), String(fallback));
}

/** An integer from `min` to `max`, or undefined when unset (its default depends on another value). */
export function optionalIntegerVar(name: string, min: number, max: number, unsetMeans: string) {
  return v.optional(integerText(name, min, max, `, or unset ${name} for ${unsetMeans}`));
}

function choiceText<const T extends readonly [string, ...string[]]>(
  name: string,
  choices: T,
  unsetMeans: string,
) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.picklist(
      choices,
      (issue) =>
        `${name}=${shown(issue.input)} is not one of ${choices.join(", ")}: set one, or unset ${name} for ${unsetMeans}`,
    ),
  );
}

/** One of `choices`; unset, `fallback`. */
export function choiceVar<const T extends readonly [string, ...string[]]>(
  name: string,
  choices: T,
  fallback: T[number],
) {
  return v.optional(choiceText(name, choices, fallback), fallback);
}

/** One of `choices`, or undefined when unset (its default depends on another value). */
export function optionalChoiceVar<const T extends readonly [string, ...string[]]>(
  name: string,
  choices: T,
  unsetMeans: string,
) {
  return v.optional(choiceText(name, choices, unsetMeans));
}

/** Text, trimmed, that `valid` accepts (`message`: the error line otherwise); unset, `fallback`. */
export function textVar<const F extends string | undefined = undefined>(
  valid: (text: string) => boolean,
  message: v.ErrorMessage<v.CheckIssue<string>>,
  fallback?: F,
) {
  return v.optional(v.pipe(v.string(), v.trim(), v.check(valid, message)), fallback as F);
}

/** Printable ASCII without spaces, at most `max` characters (a token); never shown. */
export function tokenVar(name: string, max: number, fix: string) {
  return textVar(
    (text) => text.length <= max && /^[\x21-\x7e]+$/.test(text),
    `${name} must be at most ${max} printable characters without spaces: ${fix}`,
  );
}
