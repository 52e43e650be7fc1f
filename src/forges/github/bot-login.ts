// Loupe's own login, `<app slug>[bot]`, from GET /app with the app's JWT: the one author whose
// review bodies and comments count as "already posted" (another bot's markers never do). Looked
// up once per process and cached; a failed lookup is not cached, so the next review tries again.

export interface AppClient {
  readonly rest: {
    readonly apps: {
      getAuthenticated(): Promise<{ readonly data: { readonly slug?: string } | null }>;
    };
  };
}

export function createBotLoginLookup(appClient: () => Promise<AppClient>): () => Promise<string> {
  let cached: Promise<string> | null = null;
  return () => {
    cached ??= (async () => {
      const { data } = await (await appClient()).rest.apps.getAuthenticated();
      const slug = data?.slug;
      if (typeof slug !== "string" || !/^[a-z0-9][a-z0-9-]{0,99}$/i.test(slug)) {
        throw new TypeError("GET /app returned no usable slug");
      }
      return `${slug}[bot]`;
    })();
    const current = cached;
    current.catch(() => {
      if (cached === current) cached = null;
    });
    return current;
  };
}
