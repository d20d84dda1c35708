import { describe, expect, it } from "vitest";
import { buildAgentTree } from "../../../src/cli/render/agent-tree-state.ts";
import { createLiveTree } from "../../../src/cli/render/live-tree.ts";
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
