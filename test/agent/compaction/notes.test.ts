import { expect, it } from "vitest";
import { compactionReferences, formatReferences } from "../../../src/agent/compaction/compaction-notes.ts";
import { assistant, calling, results, user } from "./messages.ts";

it("lists the task ids and the files a stretch of history mentions, most recent last", () => {
  const messages = [
    user("Fix the tests."),
    calling([
      { id: "1", name: "read", args: { path: "src/a.ts" } },
      { id: "2", name: "task", args: { description: "look", prompt: "…" } },
    ]),
    results(
      { id: "1", content: "export const a = 1;" },
      { id: "2", name: "task", content: 'started in the background as task_id "sub-20250114-093012-k3f9qa"' },
    ),
    calling([
      { id: "3", name: "edit", args: { path: "src/b.ts", old_string: "x", new_string: "y" } },
      { id: "4", name: "task_output", args: { task_id: "sub-20250114-093013-zz99aa" } },
    ]),
    results({ id: "3", name: "edit", content: "ok" }, { id: "4", name: "task_output", content: "RUNNING" }),
    calling([{ id: "5", name: "read", args: { path: "src/a.ts" } }]),
    results({ id: "5", content: "again" }),
    user("<task-notification> task_id sub-20250114-093012-k3f9qa completed </task-notification>"),
    assistant("ok"),
  ];
  const references = compactionReferences(messages);
  expect(references.taskIds).toEqual(["sub-20250114-093013-zz99aa", "sub-20250114-093012-k3f9qa"]);
  expect(references.files).toEqual([
    { path: "src/b.ts", tools: ["edit"] },
    { path: "src/a.ts", tools: ["read"] },
  ]);
  expect(formatReferences(references)).toBe(
    [
      "Subagent task ids in the replaced turns: sub-20250114-093013-zz99aa, sub-20250114-093012-k3f9qa",
      "Files the replaced turns worked on (and with which tools):",
      "- src/b.ts (edit)",
      "- src/a.ts (read)",
    ].join("\n"),
  );
});

it("says nothing when there is nothing to list", () => {
  expect(formatReferences(compactionReferences([user("hi"), assistant("hello")]))).toBe("");
});

it("carries an earlier compaction's list into the next one", () => {
  const first = formatReferences(
    compactionReferences([
      calling([{ id: "1", name: "read", args: { path: "src/old.ts" } }]),
      results({ id: "1", content: "sub-20250114-093012-k3f9qa" }),
    ]),
  );
  const summary = user(`[compacted]\n\n<summary>\nnotes\n</summary>\n\n${first}`);
  const references = compactionReferences([
    summary,
    calling([{ id: "2", name: "edit", args: { path: "src/old.ts" } }]),
    results({ id: "2", content: "ok" }),
    calling([{ id: "3", name: "write", args: { path: "src/new.ts" } }]),
    results({ id: "3", content: "ok" }),
  ]);
  expect(references.taskIds).toEqual(["sub-20250114-093012-k3f9qa"]);
  expect(references.files).toEqual([
    { path: "src/old.ts", tools: ["read", "edit"] },
    { path: "src/new.ts", tools: ["write"] },
  ]);
});
