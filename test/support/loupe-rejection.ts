// Awaits a promise that must reject with a LoupeError and returns that error, so a test can
// assert its stable code and message. Anything else fails the test: a resolution, or a rejection
// with another error (rethrown as is, so its own stack shows what went wrong).

import { LoupeError } from "../../src/domain/errors.ts";

export async function loupeRejection(promise: Promise<unknown>): Promise<LoupeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LoupeError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}
