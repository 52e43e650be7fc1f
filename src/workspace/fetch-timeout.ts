// How long fetching a review's two commits may take by default: the fetch's own bound, and the
// one a worker thread running it (src/isolation) is held to, in a module of its own so that the
// server's thread knows it without loading the fetch code.

export const FETCH_TIMEOUT_MS = 180_000;
