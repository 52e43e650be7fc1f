// Prints one plain closing line ("Tests: N passed, N failed, N skipped") after jest's own
// summary, so a reader of CI output (human or machine) sees the counts on a line of their own.
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
    );
  }
}
