import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { unixSocketFilter, unixSocketFilterFile } from "../../src/sandbox/seccomp-filter.ts";

// The filter's program run by a small classic-BPF interpreter over `struct seccomp_data`, for both
// architectures (the sandboxed runs in unix-sockets.test.ts exercise this machine's only).

interface Call {
  arch: number;
  nr: number;
  arg0?: number;
}

/** What the kernel would do with `call`: the filter's return value. */
function evaluate(program: Buffer, call: Call): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr | 0, 0);
  data.writeUInt32LE(call.arch, 4);
  data.writeUInt32LE((call.arg0 ?? 0) >>> 0, 16);
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      accumulator = data.readUInt32LE(k);
      pc++;
    } else if (code === 0x15 || code === 0x35) {
      const taken = code === 0x15 ? accumulator === k : accumulator >= k;
      pc += 1 + (taken ? jt : jf);
    } else if (code === 0x06) {
      return k;
    } else {
      throw new Error(`unexpected instruction ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error("the program ran off its end");
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

describe.each([
  ["x64", 0xc000003e, { socket: 41, socketpair: 53, connect: 42, read: 0 }],
  ["arm64", 0xc00000b7, { socket: 198, socketpair: 199, connect: 203, read: 63 }],
] as const)("the seccomp filter on %s", (arch, audit, nr) => {
  // Built inside each test, so that a bug in building it fails that test (not only the file's collection).
  const filter = () => unixSocketFilter(arch) as Buffer;

  it("refuses socket(AF_UNIX) and allows every other family", () => {
    const program = filter();
    expect(evaluate(program, { arch: audit, nr: nr.socket, arg0: 1 })).toBe(EPERM);
    for (const family of [2, 10, 16, 17])
      expect(evaluate(program, { arch: audit, nr: nr.socket, arg0: family })).toBe(ALLOW);
  });

  it("allows socketpair, connect and everything else", () => {
    const program = filter();
    for (const call of [nr.socketpair, nr.connect, nr.read])
      expect(evaluate(program, { arch: audit, nr: call, arg0: 1 })).toBe(ALLOW);
  });

  it("refuses io_uring (ENOSYS) and any call through another architecture's entry", () => {
    const program = filter();
    for (const call of [425, 426, 427]) expect(evaluate(program, { arch: audit, nr: call })).toBe(ENOSYS);
    expect(evaluate(program, { arch: 0x40000003, nr: 102, arg0: 1 })).toBe(EPERM);
  });
});

it("x32 calls on x86-64 are refused; an architecture without known numbers gets no filter", () => {
  const program = unixSocketFilter("x64") as Buffer;
  expect(evaluate(program, { arch: 0xc000003e, nr: 0x40000000 + 41, arg0: 1 })).toBe(EPERM);
  expect(unixSocketFilter("s390x")).toBeUndefined();
});

describe("the filter's file", () => {
  it("holds the filter, readable by this user only, one file for every command of the process", async () => {
    const file = unixSocketFilterFile() as string;
    expect(await readFile(file)).toEqual(unixSocketFilter());
    expect((await stat(file)).mode & 0o777).toBe(0o400);
    expect((await stat(dirname(file))).mode & 0o777).toBe(0o700);
    expect(unixSocketFilterFile()).toBe(file);
  });

  it("is removed with its folder when the process exits", () => {
    const module = new URL("../../src/sandbox/seccomp-filter.ts", import.meta.url).href;
    const script = `import { unixSocketFilterFile } from ${JSON.stringify(module)}; console.log(unixSocketFilterFile());`;
    const file = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    }).trim();
    expect(file).toMatch(/no-unix-sockets\.bpf$/);
    expect(existsSync(dirname(file))).toBe(false);
  });
});
