/** The error bodies both OpenAI APIs (Chat Completions and Responses) send with an HTTP error status. */
const errorShapes: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request" },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden" },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests" },
  500: {
    type: "server_error",
    code: null,
    message: "The server had an error while processing your request. Sorry about that!",
  },
  503: {
    type: "server_error",
    code: null,
    message: "The engine is currently overloaded, please try again later",
  },
};

/** An OpenAI error body: `{error:{message, type, param, code}}`. */
export function openaiErrorBody(status: number, message?: string): unknown {
  const shape = errorShapes[status] ?? errorShapes[status >= 500 ? 500 : 400]!;
  return { error: { message: message ?? shape.message, type: shape.type, param: null, code: shape.code } };
}
