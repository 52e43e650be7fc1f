// Whose account the App is registered on: the organisation typed into the setup page (an empty
// field: the operator's personal account), else GH_ORG, else the personal account.

export type OwnerChoice =
  | { readonly ok: true; readonly org: string | null }
  | { readonly ok: false; readonly problem: string };

/** GitHub's rule for a login: letters, digits and single hyphens, at most 39 characters. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

export function checkOrgLogin(name: string, value: string): string | null {
  return LOGIN.test(value) ? null : `${name} must be an organisation's login (letters, digits, -)`;
}

/** @param typed the page's `org` field (null when the form did not send one) */
export function chooseOwner(
  env: Readonly<Record<string, string | undefined>>,
  typed: string | null,
): OwnerChoice {
  const org = typed === null ? (env.GH_ORG ?? null) : typed.trim() || null;
  if (org === null) return { ok: true, org: null };
  const problem = checkOrgLogin(typed === null ? "GH_ORG" : "The organisation", org);
  return problem === null ? { ok: true, org } : { ok: false, problem };
}
