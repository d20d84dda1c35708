import { z } from "zod";
import type { Usage } from "./messages.ts";

/** `Usage` as stored on disk (transcripts, task records): read back through this schema. */
export const usageSchema = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  cost: z.number().exactOptional(),
});

// Compile-time proof that the schema and the in-memory type are the same.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const schemaMatchesType: Same<z.infer<typeof usageSchema>, Usage> = true;
void schemaMatchesType;
