import { createInterface } from "node:readline";
import type { ProjectView } from "../../config/read-project.ts";

/**
 * The question interactive `chat` asks once in a folder whose project files would widen what agentry
 * may do, before anything of theirs runs: what they are, by file, and trust / not now. "Trust" is
 * recorded (`readProject`); "not now" runs without them and asks again next time.
 */
export function trustQuestion(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): (view: ProjectView) => Promise<boolean> {
  return (view) => {
    const waiting = view.withheld.filter((item) => item.kind === "untrusted");
    const lines = [
      view.trust.changed
        ? `The project settings of ${view.folder} changed since you trusted it. They now ask for:`
        : `${view.folder} is a folder you have not trusted. Its project files ask for more than agentry gives an unknown repository:`,
      ...waiting.map((item) => `  ${item.source}: ${item.setting}`),
      "Trusting it runs its MCP servers and applies its allow rules and settings as they stand now (agentry trust --revoke undoes it).",
    ];
    output.write(`${lines.join("\n")}\n`);
    const rl = createInterface({ input, output, terminal: false });
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const finish = (trusted: boolean) => {
        if (settled) return;
        settled = true;
        rl.close();
        resolve(trusted);
      };
      rl.on("close", () => finish(false));
      const ask = () =>
        rl.question("? Trust this folder?  [t] trust   [n] not now > ", (line) => {
          const answer = line.trim().toLowerCase();
          if (answer === "t" || answer === "trust" || answer === "y" || answer === "yes") finish(true);
          else if (answer === "n" || answer === "no" || answer === "not now" || answer === "") finish(false);
          else ask();
        });
      ask();
    });
  };
}
