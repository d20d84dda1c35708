// A fresh process that lists a workspace's TaskRecords the way `agentry tasks list` would, for when
// the CLI command is not there:  node bench/support/store-list-main.ts <workspace>
// Prints {count, listMs} (listMs: the `list()` call alone; the caller times the whole process).
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";

const workspace = process.argv[2];
if (workspace === undefined) throw new Error("usage: store-list-main.ts <workspace>");
const started = performance.now();
const records = await new WorkspaceTaskStore({ workspace }).list();
process.stdout.write(`${JSON.stringify({ count: records.length, listMs: performance.now() - started })}\n`);
