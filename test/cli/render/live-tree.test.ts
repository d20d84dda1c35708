import { describe, expect, it } from "vitest";
import { renderAgentTree } from "../../../src/cli/render/agent-tree-view.ts";
import { createLiveTree } from "../../../src/cli/render/live-tree.ts";
import { textWidth } from "../../../src/cli/render/text-width.ts";
import { buildAgentTree } from "../../../src/tree/agent-tree-state.ts";
import { end, start, timed, toolStart } from "./support/tree-events.ts";
import { VirtualTerminal } from "./support/virtual-terminal.ts";

const twoChildren = buildAgentTree(
  timed([
    start("main", "main", "m"),
    start("main/explore-1", "explore", "m", "layout"),
    start("main/explore-2", "explore", "m", "tests"),
    toolStart("main/explore-1", "r1", "read", { path: "src/a.ts" }),
  ]),
);
const oneDone = buildAgentTree(
  timed([
    start("main", "main", "m"),
    start("main/explore-1", "explore", "m", "layout"),
    start("main/explore-2", "explore", "m", "tests"),
    end("main/explore-2", "completed"),
  ]),
);
const allDone = buildAgentTree(
  timed([
    start("main", "main", "m"),
    start("main/explore-1", "explore", "m"),
    end("main/explore-1", "completed"),
  ]),
);

/** Names a terminal draws two columns wide per character: CJK text and an emoji. */
const wide = buildAgentTree(
  timed([
    start("main", "main", "m"),
    start("main/explore-1", "explore", "m", "读取配置"),
    start("main/explore-2", "explore", "m", "测试 🚀"),
    toolStart("main/explore-1", "r1", "read", { path: "数据/模型文件说明书的第一章.md" }),
    toolStart("main/explore-2", "r2", "grep", { pattern: "🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀" }),
  ]),
);
const wideOneDone = buildAgentTree(
  timed([
    start("main", "main", "m"),
    start("main/explore-1", "explore", "m", "读取配置"),
    start("main/explore-2", "explore", "m", "测试 🚀"),
    toolStart("main/explore-1", "r1", "read", { path: "数据/模型文件说明书的第一章.md" }),
    end("main/explore-2", "completed"),
  ]),
);

/** A live tree on a virtual terminal, drawn by hand (the timer is parked far away). */
function setup(columns = 80) {
  const terminal = new VirtualTerminal(columns, 24);
  const live = createLiveTree({ terminal, color: false, intervalMs: 3_600_000, now: () => 2_000 });
  return { terminal, live, out: live.wrap(terminal) };
}

describe("live tree", () => {
  it("draws the tree below the output and redraws it in place", () => {
    const { terminal, live, out } = setup();
    out.write("Looking around.\n");
    live.update(twoChildren);
    const first = terminal.text().split("\n");
    expect(first[0]).toBe("Looking around.");
    expect(first.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(["main", "├─", "└─", "3"]);
    expect(first[2]).toContain("● read src/a.ts");
    live.update(oneDone);
    live.draw();
    const second = terminal.text().split("\n");
    expect(second).toHaveLength(5);
    expect(second[3]).toContain("✓ done");
    live.clear();
  });

  it("erases the tree before other output, so text and tree never share a line", () => {
    const { terminal, live, out } = setup();
    live.update(twoChildren);
    out.write("first line\n");
    expect(terminal.text()).toBe("first line");
    live.draw();
    out.write("second line\n");
    live.draw();
    const lines = terminal.text().split("\n");
    expect(lines.slice(0, 2)).toEqual(["first line", "second line"]);
    expect(lines[2]).toMatch(/^main /);
    live.clear();
    expect(terminal.text()).toBe("first line\nsecond line");
  });

  it("pushes an unfinished line down while it draws and puts it back intact before the next write", () => {
    const { terminal, live, out } = setup();
    out.write("● task  map the source layout");
    live.update(twoChildren);
    expect(terminal.text().split("\n")[0]).toBe("● task  map the source layout");
    expect(terminal.text().split("\n")[1]).toMatch(/^main /);
    out.write("  ✓ 1.2s\n");
    expect(terminal.text()).toBe("● task  map the source layout  ✓ 1.2s");
    live.draw();
    live.clear();
    expect(terminal.text()).toBe("● task  map the source layout  ✓ 1.2s");
  });

  it("handles an unfinished line that wraps over several rows", () => {
    const { terminal, live, out } = setup(30);
    out.write("x".repeat(70));
    live.update(twoChildren);
    out.write("y\n");
    expect(terminal.text()).toBe(`${"x".repeat(30)}\n${"x".repeat(30)}\n${"x".repeat(10)}y`);
  });

  it("keeps every tree line narrower than the terminal, so nothing wraps", () => {
    const { terminal, live } = setup(40);
    live.update(twoChildren);
    const lines = terminal.text().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) expect([...line].length).toBeLessThan(40);
  });

  it("measures wide characters in columns: no tree line wraps, whatever the width", () => {
    for (const columns of [20, 33, 40, 61, 80]) {
      const { terminal, live } = setup(columns);
      live.update(wide);
      // What the live tree draws: the view at its width, one column short of the terminal's.
      const lines = renderAgentTree(wide, { now: 2_000, width: columns - 1, color: false });
      expect(lines).toHaveLength(4);
      for (const line of lines) expect(textWidth(line), `${columns}: ${line}`).toBeLessThan(columns);
      // One screen row per line: had a line wrapped, the screen would show more rows than lines.
      expect(terminal.text().split("\n"), `${columns}`).toHaveLength(lines.length);
      live.clear();
      expect(terminal.text()).toBe("");
    }
  });

  it("redraws a tree of wide characters in place and erases it whole: no stale rows", () => {
    const { terminal, live, out } = setup(80);
    out.write("before\n");
    live.update(wide);
    live.update(wideOneDone);
    live.draw();
    expect(terminal.text().split("\n")).toHaveLength(5);
    out.write("after\n");
    expect(terminal.text()).toBe("before\nafter");
    live.clear();
    expect(terminal.text()).toBe("before\nafter");
  });

  it("puts back an unfinished line of wide characters that wraps, counting its rows in columns", () => {
    // 21 columns hold ten two-column characters a row: 21 of them take three rows, not two.
    const { terminal, live, out } = setup(21);
    out.write("字".repeat(21));
    live.update(twoChildren);
    expect(terminal.text().split("\n").slice(0, 3)).toEqual(["字".repeat(10), "字".repeat(10), "字"]);
    out.write("y\n");
    expect(terminal.text()).toBe(`${"字".repeat(10)}\n${"字".repeat(10)}\n字y`);
  });

  it("erases itself when no child is running any more, and draws nothing for a tree without children", () => {
    const { terminal, live, out } = setup();
    out.write("before\n");
    live.update(twoChildren);
    live.update(allDone);
    expect(terminal.text()).toBe("before");
    const writes = terminal.writes.length;
    live.update(allDone);
    live.draw();
    expect(terminal.writes.length).toBe(writes);
  });

  it("stays away while paused and comes back after resume", () => {
    const { terminal, live } = setup();
    live.update(twoChildren);
    live.pause();
    expect(terminal.text()).toBe("");
    live.update(oneDone);
    live.draw();
    expect(terminal.text()).toBe("");
    live.resume();
    live.draw();
    expect(terminal.text()).toMatch(/^main /);
    live.clear();
  });
});
