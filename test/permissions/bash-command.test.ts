import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluateRequest } from "../../src/permissions/evaluate.ts";

const patterns = bashPermissionPatterns;

describe("bashPermissionPatterns: splitting", () => {
  it("returns a simple command as one normalized pattern", () => {
    expect(patterns("ls")).toEqual(["ls"]);
    expect(patterns("  git   status  --short ")).toEqual(["git status --short"]);
  });

  it("splits on ; && || | & and newlines", () => {
    expect(patterns("a; b && c || d | e & f\ng")).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    expect(patterns("a |& b")).toEqual(["a", "b"]);
  });

  it("keeps quoted separators inside one command and removes the quotes", () => {
    expect(patterns('echo "a; rm x"')).toEqual(["echo a; rm x"]);
    expect(patterns("echo 'a && rm x' | grep a")).toEqual(["echo a && rm x", "grep a"]);
    expect(patterns("echo a\\;rm x")).toEqual(["echo a;rm x"]);
  });

  it("undoes quoting that would hide a command name", () => {
    expect(patterns("'rm' -rf x")).toEqual(["rm -rf x"]);
    expect(patterns('r"m" -rf x')).toEqual(["rm -rf x"]);
    expect(patterns("\\rm -rf x")).toEqual(["rm -rf x"]);
    expect(patterns("$'\\x72m' -rf x")).toEqual(["rm -rf x"]);
  });

  it("joins line continuations and ignores comments", () => {
    expect(patterns("cat a \\\n  b")).toEqual(["cat a b"]);
    expect(patterns("echo hi # ; rm x")).toEqual(["echo hi"]);
    expect(patterns("echo a#b")).toEqual(["echo a#b"]);
  });

  it("drops control-flow keywords and loop headers but keeps their commands", () => {
    expect(patterns("if [ -f x ]; then cat x; else rm x; fi")).toEqual(["[ -f x ]", "cat x", "rm x"]);
    expect(patterns("for f in *.ts; do wc -l $f; done")).toEqual(["wc -l $f"]);
    expect(patterns("while true; do rm x; done")).toEqual(["true", "rm x"]);
    expect(patterns("f() { rm x; }; f")).toEqual(["rm x", "f"]);
  });

  it("splits leading assignments off as patterns of their own", () => {
    expect(patterns("FOO=bar ls")).toEqual(["ls", "FOO=bar"]);
    expect(patterns('GIT_PAGER="rm -rf ~" git log')).toEqual(["git log", "GIT_PAGER=rm -rf ~"]);
    expect(patterns('"A=1" ls')).toEqual(["A=1 ls"]);
  });
});

describe("bashPermissionPatterns: what a prefix cannot see", () => {
  it("marks output redirected to a file", () => {
    expect(patterns("cat a > b")).toEqual(["cat a", "> b"]);
    expect(patterns("ls >> log.txt")).toEqual(["ls", "> log.txt"]);
    expect(patterns("ls &> out")).toEqual(["ls", "> out"]);
    expect(patterns("make 2> err.log")).toEqual(["make", "> err.log"]);
    expect(patterns("ls >& out")).toEqual(["ls", "> out"]);
    expect(patterns("ls >| out")).toEqual(["ls", "> out"]);
    expect(patterns("cat <> f")).toEqual(["cat", "> f"]);
    expect(patterns("> f")).toEqual(["> f"]);
  });

  it("does not mark reads, /dev/null or descriptor duplication", () => {
    expect(patterns("ls > /dev/null 2>&1")).toEqual(["ls"]);
    expect(patterns("grep x < in.txt 2>/dev/null")).toEqual(["grep x"]);
    expect(patterns("echo oops >&2")).toEqual(["echo oops"]);
    expect(patterns("ls 3>&-")).toEqual(["ls"]);
  });

  it("lists the commands inside substitutions, recursively", () => {
    expect(patterns("echo $(rm x)")).toEqual(["echo $(rm x)", "rm x"]);
    expect(patterns("echo `rm x`")).toEqual(["echo `rm x`", "rm x"]);
    expect(patterns('echo "today: $(date; rm y)"')).toEqual(["echo today: $(date; rm y)", "date", "rm y"]);
    expect(patterns("echo $(echo $(rm z))")).toEqual(["echo $(echo $(rm z))", "echo $(rm z)", "rm z"]);
    const parameter = "echo $" + "{X:-$(rm x)}";
    expect(patterns(parameter)).toEqual([parameter, "rm x"]);
    expect(patterns("echo $((1 + $(rm x)))")).toEqual(["echo $((1 + $(rm x)))", "rm x"]);
    expect(patterns("X=$(rm z)")).toEqual(["X=$(rm z)", "rm z"]);
  });

  it("does not look inside single quotes or quoted here-documents", () => {
    expect(patterns("echo '$(rm x)'")).toEqual(["echo $(rm x)"]);
    expect(patterns("cat <<'EOF'\n$(rm y)\nEOF\nls")).toEqual(["cat", "ls"]);
  });

  it("finds substitutions in unquoted here-documents and resumes after them", () => {
    expect(patterns("cat <<EOF > out.txt\nhello $(rm y)\nEOF\nls")).toEqual([
      "cat",
      "> out.txt",
      "rm y",
      "ls",
    ]);
    expect(patterns("cat <<-EOF\n\tx\n\tEOF\nrm z")).toEqual(["cat", "rm z"]);
  });

  it("lists the commands of subshells and process substitutions", () => {
    expect(patterns("(cd src && rm -rf x)")).toEqual(["cd src", "rm -rf x"]);
    expect(patterns("(ls) > out")).toEqual(["> out", "ls"]);
    expect(patterns("diff <(ls a) <(ls b)")).toEqual(["diff <(ls a) <(ls b)", "ls a", "ls b"]);
    expect(patterns("ls > >(tee f)")).toEqual(["ls", "> >(tee f)", "tee f", "> f"]);
  });

  it("lists what wrappers run", () => {
    expect(patterns("bash -c 'rm -rf /'")).toEqual(["bash -c rm -rf /", "rm -rf /"]);
    expect(patterns("sh -ec 'ls; rm x'")).toEqual(["sh -ec ls; rm x", "ls", "rm x"]);
    expect(patterns("eval 'rm x'")).toEqual(["eval rm x", "rm x"]);
    expect(patterns("sudo -u root rm -rf /")).toEqual(["sudo -u root rm -rf /", "rm -rf /"]);
    expect(patterns("env -i FOO=1 rm x")).toEqual(["env -i FOO=1 rm x", "rm x"]);
    expect(patterns("timeout -s KILL 5 rm x")).toEqual(["timeout -s KILL 5 rm x", "rm x"]);
    expect(patterns("nice -n 10 rm x")).toEqual(["nice -n 10 rm x", "rm x"]);
    expect(patterns("xargs -I{} rm {}")).toEqual(["xargs -I{} rm {}", "rm {}"]);
    expect(patterns("xargs -n 1 rm")).toEqual(["xargs -n 1 rm", "rm"]);
    expect(patterns("xargs")).toEqual(["xargs", "echo"]);
    expect(patterns("find . -exec rm {} \\;")).toEqual(["find . -exec rm {} ;", "rm {}"]);
    expect(patterns("/bin/rm -rf x")).toEqual(["/bin/rm -rf x", "rm -rf x"]);
    expect(patterns("command -v git")).toEqual(["command -v git"]);
    expect(patterns("command rm x")).toEqual(["command rm x", "rm x"]);
  });

  it("follows time -p, coproc, builtin and trap to the command they run", () => {
    expect(patterns("time -p rm -rf x")).toEqual(["rm -rf x"]);
    expect(patterns("time -p -- rm x")).toEqual(["rm x"]);
    expect(patterns("coproc rm -rf x")).toEqual(["rm -rf x"]);
    expect(patterns("coproc WORKER { rm -rf x; }")).toEqual(["rm -rf x"]);
    expect(patterns("coproc WORKER (rm -rf x)")).toEqual(["rm -rf x"]);
    expect(patterns("builtin eval 'rm -rf x'")).toEqual([
      "builtin eval rm -rf x",
      "eval rm -rf x",
      "rm -rf x",
    ]);
    expect(patterns("trap 'rm -rf x' EXIT")).toEqual(["trap rm -rf x EXIT", "rm -rf x"]);
    expect(patterns("trap -- 'rm x; curl y' INT TERM")).toEqual([
      "trap -- rm x; curl y INT TERM",
      "rm x",
      "curl y",
    ]);
    // Resetting, ignoring or printing traps runs nothing.
    expect(patterns("trap - EXIT")).toEqual(["trap - EXIT"]);
    expect(patterns("trap '' INT")).toEqual(["trap  INT"]);
    expect(patterns("trap -p")).toEqual(["trap -p"]);
    expect(patterns("trap -z 'rm x' EXIT")).toContain("!trap option -z is not understood");
  });

  it("does not let those wrappers slip a command past a deny rule", () => {
    const rules = [
      { permission: "bash", pattern: "*", action: "allow" as const },
      { permission: "bash", pattern: "rm *", action: "deny" as const },
    ];
    for (const command of [
      "time -p rm -rf x",
      "coproc W { rm -rf x; }",
      "builtin eval 'rm -rf x'",
      "trap 'rm -rf x' EXIT",
    ]) {
      expect(evaluateRequest(rules, "bash", patterns(command)).action, command).toBe("deny");
    }
  });

  it("reports an xargs option it does not understand", () => {
    expect(patterns("xargs -X ls rm")).toContain("!xargs option -X is not understood");
  });

  it("marks writes hidden in arguments", () => {
    expect(patterns("sed -i s/a/b/ f")).toEqual(["sed -i s/a/b/ f", "> f"]);
    expect(patterns("sed -i.bak -e s/a/b/ f g")).toEqual(["sed -i.bak -e s/a/b/ f g", "> f", "> g"]);
    expect(patterns("sed --in-place=.bak s/a/b/ f")).toContain("> f");
    expect(patterns("sed 's/a/b/w out' f")).toContain("> out");
    expect(patterns("sed -n '1w out' f")).toContain("> out");
    expect(patterns("sed '1e date' f")).toContain("!sed e command runs a shell command");
    expect(patterns("sed 's/x/date/e' f")).toContain("!sed s///e runs the pattern space as a command");
    expect(patterns("sed -f script.sed f")).toContain("!sed script file is not inspected");
    expect(patterns("find . -delete")).toContain("!find -delete removes files");
    expect(patterns("find . -fprint out")).toContain("> out");
    expect(patterns("sort -o out in")).toContain("> out");
    expect(patterns("sort -uo out in")).toContain("> out");
    expect(patterns("uniq a b")).toContain("> b");
    expect(patterns("ls | tee f g")).toEqual(["ls", "tee f g", "> f", "> g"]);
    expect(patterns("git diff --output=x")).toContain("> x");
    expect(patterns("git grep -O foo")).toContain("!git -O may run a pager command");
    expect(patterns("tree -o out")).toContain("> out");
    expect(patterns("tree --output out")).toContain("> out");
    expect(patterns("tree --output=out .")).toContain("> out");
    expect(patterns("awk '{system(\"rm x\")}' f")).toContain("!awk program may run commands or write files");
    expect(patterns("awk '{print > \"out\"}' f")).toContain("!awk program may run commands or write files");
    expect(patterns("awk -f prog.awk f")).toContain("!awk program file is not inspected");
    expect(patterns("gawk -i inplace '{print}' f")).toContain("!awk loads a library or extension");
  });

  it("leaves read-only uses of the same commands unmarked", () => {
    expect(patterns("sed -n '10,20p' a.ts")).toEqual(["sed -n 10,20p a.ts"]);
    expect(patterns("sed -e 's/a/b/g' -e '/^#/d' f")).toEqual(["sed -e s/a/b/g -e /^#/d f"]);
    expect(patterns("sed -n '/where/{p;q}' f")).toEqual(["sed -n /where/{p;q} f"]);
    expect(patterns("awk -F: '$3 >= 1000 {print $1}' /etc/passwd")).toEqual([
      "awk -F: $3 >= 1000 {print $1} /etc/passwd",
    ]);
    expect(patterns("sort -u -k2 f")).toEqual(["sort -u -k2 f"]);
    expect(patterns("uniq -c")).toEqual(["uniq -c"]);
  });

  it("reports syntax it cannot follow", () => {
    expect(patterns("echo 'unterminated")).toContain("!shell syntax not understood: unterminated ' quote");
    expect(patterns("echo $(ls")).toContain("!shell syntax not understood: missing )");
    expect(patterns("ls )")).toContain("!shell syntax not understood: unexpected )");
    expect(patterns("ls >")).toContain("!shell syntax not understood: missing target after >");
  });

  it("survives pathological nesting", () => {
    const deep = `${"$(".repeat(200)}ls${")".repeat(200)}`;
    expect(patterns(deep).some((pattern) => pattern.startsWith("!"))).toBe(true);
  });

  it("returns nothing for an empty command", () => {
    expect(patterns("")).toEqual([]);
    expect(patterns("  \n ; ")).toEqual([]);
  });
});
