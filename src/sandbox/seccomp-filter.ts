import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp <fd>` takes it) that refuses to make a
 * Unix socket: `socket(AF_UNIX, …)` fails with EPERM, so a command cannot connect to a host service's
 * socket (ssh-agent, D-Bus, docker.sock) even where it can see it — connect(2) ignores read-only mounts.
 * `socketpair(2)` stays allowed: it makes a connected pair inside the command and reaches nothing.
 * io_uring is refused too (ENOSYS: "not here", which programs fall back from), since its SOCKET
 * operation makes sockets without the socket system call. A call made through another architecture's
 * entry (i386's `int 0x80`, x32) is refused, since its numbers differ.
 */
interface Arch {
  /** `AUDIT_ARCH_*` */
  audit: number;
  socket: number;
  /** x86-64 also takes x32 calls (numbers with this bit) through its own entry. */
  x32Bit?: number;
}

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = {
  x64: { audit: 0xc000003e, socket: 41, x32Bit: 0x40000000 },
  arm64: { audit: 0xc00000b7, socket: 198 },
};

/** io_uring_setup, io_uring_enter, io_uring_register: the same numbers on both. */
const IO_URING = [425, 426, 427];
const AF_UNIX = 1;
const EPERM = 1;
const ENOSYS = 38;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
/** Offsets in `struct seccomp_data`: nr, arch, then args[0] (its low 32 bits first: both are little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

type Label = "allow" | "eperm" | "enosys" | "socket" | "next";
type Instruction =
  | { op: "load"; offset: number; label?: Label }
  | { op: "jeq" | "jge"; value: number; yes: Label; no: Label; label?: Label }
  | { op: "return"; value: number; label?: Label };

/** The filter for `arch` (`process.arch`), or undefined where agentry does not know its numbers. */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const known = ARCHES[arch];
  if (known === undefined) return undefined;
  const program: Instruction[] = [
    { op: "load", offset: ARCH },
    { op: "jeq", value: known.audit, yes: "next", no: "eperm" },
    { op: "load", offset: NR },
    ...(known.x32Bit === undefined
      ? []
      : [{ op: "jge", value: known.x32Bit, yes: "eperm", no: "next" } as const]),
    { op: "jeq", value: known.socket, yes: "socket", no: "next" },
    ...IO_URING.map((nr) => ({ op: "jeq", value: nr, yes: "enosys", no: "next" }) as const),
    { op: "return", value: SECCOMP_RET_ALLOW },
    { op: "load", offset: ARG0, label: "socket" },
    { op: "jeq", value: AF_UNIX, yes: "eperm", no: "allow" },
    { op: "return", value: SECCOMP_RET_ALLOW, label: "allow" },
    { op: "return", value: SECCOMP_RET_ERRNO | EPERM, label: "eperm" },
    { op: "return", value: SECCOMP_RET_ERRNO | ENOSYS, label: "enosys" },
  ];
  return assemble(program);
}

/** `struct sock_filter[]`: u16 code, u8 jt, u8 jf, u32 k each, in this machine's (little-endian) order. */
function assemble(program: readonly Instruction[]): Buffer {
  const at = new Map<Label, number>();
  program.forEach((instruction, index) => {
    if (instruction.label !== undefined) at.set(instruction.label, index);
  });
  const buffer = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    const offset = index * 8;
    const jump = (label: Label): number => {
      const target = label === "next" ? index + 1 : at.get(label);
      if (target === undefined || target <= index || target - index - 1 > 255)
        throw new Error(`seccomp filter: no forward jump to ${label} from ${index}`);
      return target - index - 1;
    };
    if (instruction.op === "load") {
      buffer.writeUInt16LE(0x20, offset); // BPF_LD | BPF_W | BPF_ABS
      buffer.writeUInt32LE(instruction.offset, offset + 4);
    } else if (instruction.op === "return") {
      buffer.writeUInt16LE(0x06, offset); // BPF_RET | BPF_K
      buffer.writeUInt32LE(instruction.value >>> 0, offset + 4);
    } else {
      buffer.writeUInt16LE(instruction.op === "jeq" ? 0x15 : 0x35, offset); // BPF_JMP | BPF_JEQ/JGE | BPF_K
      buffer.writeUInt8(jump(instruction.yes), offset + 2);
      buffer.writeUInt8(jump(instruction.no), offset + 3);
      buffer.writeUInt32LE(instruction.value >>> 0, offset + 4);
    }
  });
  return buffer;
}

let written: string | undefined | null = null;

/**
 * The filter as a file of this process's own (in a private folder, removed at exit), for bubblewrap
 * to read through a file descriptor; undefined on an architecture without a filter.
 */
export function unixSocketFilterFile(): string | undefined {
  if (written !== null) return written;
  const filter = unixSocketFilter();
  if (filter === undefined) {
    written = undefined;
    return written;
  }
  const dir = mkdtempSync(join(tmpdir(), "agentry-seccomp-"));
  const file = join(dir, "no-unix-sockets.bpf");
  writeFileSync(file, filter, { mode: 0o400 });
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  written = file;
  return written;
}

/**
 * How bubblewrap is started with the filter: a shell opens the file on descriptor `fd` (bwrap reads
 * and closes it before the command starts) and becomes bwrap: `sh -c 'exec "$@" 3<"$0"' <file> bwrap …`.
 */
export function withFilterOnFd(file: string, fd: number, bwrap: string, args: readonly string[]): string[] {
  return ["-c", `exec "$@" ${fd}<"$0"`, file, bwrap, ...args];
}
