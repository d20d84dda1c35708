import { z } from "zod";
import { encryptedReasoning } from "./openai-responses-sse.ts";

/** An HTTP error the server answers instead of a scripted reply. */
export interface InputError {
  status: number;
  message: string;
}

const inputItem = z.looseObject({
  type: z.string().optional(),
  id: z.string().optional(),
  call_id: z.string().optional(),
  encrypted_content: z.string().nullish(),
});

/**
 * What OpenAI refuses in a Responses request's `input`, checked here too so that a client that drops
 * or mangles the items it must send back fails against the test server as it would against the API:
 * - with `store: false` nothing is kept on the server, so an `item_reference`, or a reasoning item
 *   without its encrypted content, names an item that does not exist (404);
 * - encrypted content verifies only for the item it was issued with (400);
 * - a `function_call_output` must answer a `function_call` sent earlier in the input (400).
 */
export function responsesInputError(body: Record<string, unknown>): InputError | undefined {
  const input = z.array(inputItem).safeParse(body.input);
  if (!input.success) return undefined;
  const stateless = body.store === false;
  const calls = new Set<string>();
  for (const item of input.data) {
    if (item.type === "function_call" && item.call_id) calls.add(item.call_id);
    if (item.type === "function_call_output" && item.call_id && !calls.has(item.call_id))
      return {
        status: 400,
        message: `No tool call found for function call output with call_id ${item.call_id}.`,
      };
    const referenced =
      item.type === "item_reference" || (item.type === "reasoning" && !item.encrypted_content);
    if (stateless && referenced)
      return {
        status: 404,
        message: `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
      };
    if (item.type === "reasoning" && item.encrypted_content && !verifies(item.encrypted_content, item.id))
      return {
        status: 400,
        message: `The encrypted content for item ${item.id} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`,
      };
  }
  return undefined;
}

/** Without an id (OpenAI accepts that) the content must still be one the server issued. */
function verifies(encrypted: string, id: string | undefined): boolean {
  if (id !== undefined) return encrypted === encryptedReasoning(id);
  return Buffer.from(encrypted, "base64").toString().startsWith("test-encrypted:");
}
