import { z } from "zod";
import { type TaskRecord, taskRecordSchema } from "../task-record.ts";

export type TaskFileSchema = z.ZodObject<{
  version: z.ZodLiteral<number>;
  records: z.ZodArray<z.ZodType<TaskRecord>>;
}>;

/**
 * The zod schema of a task file of `version`, which words what is wrong with a file the quick check
 * (`isTaskRecord`) refused. Its own module, imported only dynamically by `task-file.ts`: a reader of
 * valid files loads no zod, in the sources and in the bundle alike (docs/install.md).
 */
export function taskFileSchema(version: number): TaskFileSchema {
  return z.object({ version: z.literal(version), records: z.array(taskRecordSchema) });
}
