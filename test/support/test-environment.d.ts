// Types of every test file's environment (a plain JavaScript module, as jest loads it), for its test.
import type { TestEnvironment } from "jest-environment-node";

export interface LiveChild {
  readonly pid: number;
  readonly command: string;
}
export function liveChildren(parentPid?: number): LiveChild[];
export default class TestFileEnvironment extends TestEnvironment {}
