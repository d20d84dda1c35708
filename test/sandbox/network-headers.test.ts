import { describe, expect, it } from "vitest";
import { forwardedHeaders } from "../../src/sandbox/network-headers.ts";

/** `rawHeaders` form (name, value, name, value …) from pairs. */
const raw = (pairs: Array<[string, string]>) => pairs.flat();

describe("forwardedHeaders", () => {
  it("drops hop-by-hop headers and those Connection names, keeping the others with their case and order", () => {
    const headers = raw([
      ["Connection", "keep-alive, X-Trace"],
      ["Keep-Alive", "timeout=5"],
      ["Proxy-Authorization", "Basic c2VjcmV0"],
      ["Proxy-Connection", "keep-alive"],
      ["TE", "trailers"],
      ["Transfer-Encoding", "chunked"],
      ["Upgrade", "websocket"],
      ["X-Trace", "abc"],
      ["Authorization", "Bearer token"],
      ["Accept", "text/plain"],
      ["accept", "application/json"],
    ]);
    expect(forwardedHeaders(headers)).toEqual(
      raw([
        ["Authorization", "Bearer token"],
        ["Accept", "text/plain"],
        ["accept", "application/json"],
      ]),
    );
  });

  it("sets Host from the request's URL in place of the client's", () => {
    const headers = raw([
      ["host", "elsewhere"],
      ["Accept", "*/*"],
    ]);
    expect(forwardedHeaders(headers, "example.com:8080")).toEqual(
      raw([
        ["Host", "example.com:8080"],
        ["Accept", "*/*"],
      ]),
    );
  });

  it("a header that is not Connection names nothing; without a host, a Host header passes on", () => {
    expect(
      forwardedHeaders(["X-Note", "content-type", "Content-Type", "text/plain", "Host", "a.example"]),
    ).toEqual(["X-Note", "content-type", "Content-Type", "text/plain", "Host", "a.example"]);
  });
});
