// What an instruction file costs (issue 22): the context-economy workload (bench/economy.ts) run
// without an instruction file and with a 1 KB AGENTS.md in the workspace, by the same installed
// package. Per call, the fixed tokens (system prompt + tools) of the parent's and of a child's first
// request, and the tree's prompt-cache hit rate; and the file's own tokens by the same estimate (its
// text as a JSON string, ÷ 4). The file should add about its own size to every fixed part, and no
// cache read should be lost: it sits in the system prompt, the same on every call.
//   node bench/instructions.ts [--runs 3]
import { measureEconomy } from "./economy.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Installed, installPacked } from "./support/dist-build.ts";
import { type Row, row } from "./support/row.ts";

const FIGURE = "instructions";

/** A 1 KB AGENTS.md as projects write them: commands, conventions, what not to touch. */
export const AGENTS_MD_1KB = agentsMd(1024);

export interface InstructionsOptions extends BenchArgs {
  /** The `agentry` bin to run (default: the installed package, packed from this checkout). */
  bin?: string;
}

export async function measureInstructions(options: InstructionsOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 3;
  let installed: Installed | undefined;
  try {
    let bin = options.bin;
    if (bin === undefined) {
      installed = await installPacked();
      bin = installed.bin;
    }
    const without = await measureEconomy({ runs, bin });
    const withFile = await measureEconomy({ runs, bin, agentsMd: AGENTS_MD_1KB });
    const pick = (rows: Row[], metric: string) =>
      rows.find((line) => line.metric.startsWith(metric))?.samples ?? [];
    const own = Math.ceil(JSON.stringify(AGENTS_MD_1KB).length / 4);
    const note = `the economy workload (bench/economy.ts), ${runs} run(s) each; AGENTS.md of ${Buffer.byteLength(AGENTS_MD_1KB)} bytes`;
    return [
      row(FIGURE, "the AGENTS.md's own tokens (its text as JSON ÷ 4)", "tok", [own], { note }),
      row(
        FIGURE,
        "fixed tokens per call, parent, no instruction file",
        "tok",
        pick(without, "fixed tokens per call, parent"),
      ),
      row(
        FIGURE,
        "fixed tokens per call, parent, with AGENTS.md",
        "tok",
        pick(withFile, "fixed tokens per call, parent"),
      ),
      row(
        FIGURE,
        "fixed tokens per call, child, no instruction file",
        "tok",
        pick(without, "fixed tokens per call, child"),
      ),
      row(
        FIGURE,
        "fixed tokens per call, child, with AGENTS.md",
        "tok",
        pick(withFile, "fixed tokens per call, child"),
      ),
      row(FIGURE, "total input tokens, no instruction file", "tok", pick(without, "total input tokens")),
      row(FIGURE, "total input tokens, with AGENTS.md", "tok", pick(withFile, "total input tokens")),
      row(FIGURE, "prompt-cache hit rate, no instruction file", "%", pick(without, "prompt-cache hit rate")),
      row(FIGURE, "prompt-cache hit rate, with AGENTS.md", "%", pick(withFile, "prompt-cache hit rate")),
    ];
  } finally {
    await installed?.remove();
  }
}

/** Markdown of about `bytes` bytes: a heading, then numbered rules until the size is reached. */
function agentsMd(bytes: number): string {
  const rules = [
    "Run `npm test` and `npm run check` before you say a change is done.",
    "Use TypeScript strict mode; never `any`, parse outside input with zod.",
    "Keep files under 400 lines; split by responsibility, not by size.",
    "Name files in kebab-case after what they export.",
    "Comments say why, not what; prompts live in .md files beside the code.",
    "Do not edit generated files under dist/ or fixtures taken from other projects.",
  ];
  let text = "# Project instructions\n\n";
  for (let i = 0; Buffer.byteLength(text) < bytes; i++) text += `${i + 1}. ${rules[i % rules.length]}\n`;
  return `${text.slice(0, bytes - 1)}\n`;
}

await benchMain(import.meta, measureInstructions);
