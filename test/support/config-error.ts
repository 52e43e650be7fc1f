// The message of the configuration error `run` throws; anything else (no error, another error)
// fails the test.

import { isLoupeError } from "../../src/domain/errors.ts";

export function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isLoupeError(error, "configuration_invalid")) return error.message;
    throw error;
  }
  throw new Error("expected a configuration error");
}
