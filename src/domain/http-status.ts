// The HTTP status an error carries, whoever threw it: Octokit's RequestError and the fetch errors
// of other hosts' clients all put it on `status`. Here so the log and the pipeline can name a
// status without importing a host's client.

export function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}
