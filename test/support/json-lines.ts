// Reading a log as an operator's tools do: every line must be JSON on its own, and a key repeated
// in one object is a line two tools read differently (JSON.parse keeps the last, others the first),
// so the raw text is scanned for repeats that JSON.parse would hide.

/** Keys that appear more than once in one object of the JSON text (path-less: the key names). */
export function duplicateKeys(json: string): string[] {
  const stack: Array<Set<string> | null> = [];
  const repeated: string[] = [];
  let i = 0;
  while (i < json.length) {
    const char = json[i]!;
    if (char === "{") stack.push(new Set());
    else if (char === "[") stack.push(null);
    else if (char === "}" || char === "]") stack.pop();
    else if (char === '"') {
      let end = i + 1;
      while (json[end] !== '"') end += json[end] === "\\" ? 2 : 1;
      const text = JSON.parse(json.slice(i, end + 1)) as string;
      let next = end + 1;
      while (/\s/.test(json[next] ?? "")) next++;
      const keys = stack.at(-1);
      if (json[next] === ":" && keys) {
        if (keys.has(text)) repeated.push(text);
        keys.add(text);
      }
      i = end;
    }
    i++;
  }
  return repeated;
}

/** Every non-empty line of a process's output, parsed; throws naming the first line that is not JSON. */
export function parseJsonLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line.slice(0, 300)}`);
      }
    });
}
