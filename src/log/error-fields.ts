// What a logged Error becomes in a line (pino's `err` serializer). pino's standard one copies every
// enumerable property, and Probot's webhook errors carry the whole delivery (`event.payload`: a
// pull request's title and body, tens of kilobytes); Octokit's carry the request and response.
// Kept: the class, message, code and status, the first frames of the stack, the delivery's id
// and event name, the request's method and URL. The line's own bounds (bounded-line.ts) cut the rest.

const STACK_FRAMES = 5;

type Loose = Record<string, unknown>;

function field(source: unknown, name: string): unknown {
  return source !== null && typeof source === "object" ? (source as Loose)[name] : undefined;
}

function scalar(value: unknown): string | number | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

function stackHead(stack: unknown): string | undefined {
  if (typeof stack !== "string") return undefined;
  const lines = stack.split("\n");
  const firstFrame = lines.findIndex((line) => line.trim().startsWith("at "));
  return firstFrame < 0 ? lines[0] : lines.slice(0, firstFrame + STACK_FRAMES).join("\n");
}

function compact(fields: Loose): Loose {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function serializeError(error: unknown, depth = 2): unknown {
  // A plain object logged as `err` is the caller's own shape: the line's bounds are enough.
  if (!(error instanceof Error)) return error;
  const event = field(error, "event");
  const request = field(error, "request");
  return compact({
    type: error.constructor.name,
    message: scalar(field(error, "message")),
    code: scalar(field(error, "code")),
    status: scalar(field(error, "status")),
    stack: stackHead(field(error, "stack")),
    event:
      event === undefined
        ? undefined
        : compact({ id: scalar(field(event, "id")), name: scalar(field(event, "name")) }),
    request:
      request === undefined
        ? undefined
        : compact({ method: scalar(field(request, "method")), url: scalar(field(request, "url")) }),
    errors: Array.isArray(field(error, "errors"))
      ? (field(error, "errors") as unknown[])
          .slice(0, depth > 0 ? 5 : 0)
          .map((inner) => serializeError(inner, depth - 1))
      : undefined,
  });
}
