import type { Transport } from "@modelcontextprotocol/client";

/**
 * Makes the client handle a server's messages in the order they came. The SDK hands a notification
 * to its handler a microtask later, but a response at once, and a response retires its request's
 * progress handler. So a progress notification read together with the result behind it (one chunk of
 * a pipe on a loaded machine, or a server that reports its last step just before answering) was
 * dropped as "for an unknown token" (modelcontextprotocol/typescript-sdk#2580). Here each response
 * waits one microtask too, behind the notifications read before it.
 *
 * Works on any transport that calls its own `onmessage` property, as the SDK's and ours do; call it
 * before `client.connect`, which sets that property.
 */
export function inArrivalOrder<T extends Transport>(transport: T): T {
  let ordered: Transport["onmessage"];
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => ordered,
    set: (handle: Transport["onmessage"]) => {
      ordered =
        handle === undefined
          ? undefined
          : (message, extra) => {
              // Requests and notifications have a method; a response (or what the SDK rejects) has none.
              if ("method" in message) handle(message, extra);
              else queueMicrotask(() => handle(message, extra));
            };
    },
  });
  return transport;
}
