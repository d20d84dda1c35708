import { classifyToolName } from "../../tools/tool-names.ts";

/**
 * Keys that limit what an agent may do, however a harness spells them. A loader that ignored one of
 * these would run the agent with its parent's full powers, so each is either read (under its canonical
 * name) or, when we cannot tell what it means, fails the file.
 */
export const RESTRICTION_KEYS = [
  "tools",
  "disallowedTools",
  "permission",
  "permissionMode",
  "sandbox_mode",
  "readOnly",
  "readOnlyBash",
  "disable",
  "workspace",
  "allowedHosts",
] as const;
export type RestrictionKey = (typeof RESTRICTION_KEYS)[number];

export type KeyMeaning =
  /** A spelling of a restriction we read: `allowed-tools` → `tools`, `permissions` → `permission`. */
  | { kind: "restriction"; canonical: RestrictionKey }
  /**
   * Unknown, but named like a restriction (`deniedCommands`, `tool_policy`, `write: false`), or a
   * restriction's name written with letters of another script (`tоols` with a Cyrillic `о`): `imitates`
   * is what such a key reads as.
   */
  | { kind: "restriction-like"; imitates?: string }
  /** What the agent is about, not what it may do: Claude Code plugin agents' `capabilities` list. */
  | { kind: "descriptive"; canonical: "capabilities" }
  | { kind: "other" };

/** Spellings seen in agent files, lower-cased with `-`, `_`, `.` and spaces removed. */
const SPELLINGS: Readonly<Record<string, RestrictionKey>> = {
  tools: "tools",
  tool: "tools",
  allowedtools: "tools",
  enabledtools: "tools",
  disallowedtools: "disallowedTools",
  deniedtools: "disallowedTools",
  disabledtools: "disallowedTools",
  permission: "permission",
  permissions: "permission",
  permissionmode: "permissionMode",
  sandboxmode: "sandbox_mode",
  sandbox: "sandbox_mode",
  readonly: "readOnly",
  readonlybash: "readOnlyBash",
  disable: "disable",
  disabled: "disable",
  workspace: "workspace",
  isolation: "workspace",
  allowedhosts: "allowedHosts",
  networkhosts: "allowedHosts",
  network: "allowedHosts",
};

/**
 * Words that make an unknown key look like a limit. False alarms cost an error the user can fix by
 * renaming the key; a miss costs an agent with every tool its parent has.
 */
const RESTRICTIVE_WORDS = [
  "tool",
  "permi",
  "allow",
  "deny",
  "denied",
  "disallow",
  "disable",
  "sandbox",
  "readonly",
  "restrict",
  "forbid",
  "block",
  "exclude",
  "access",
  "capabilit",
  "bash",
  "shell",
  "command",
];

/** Lower case, letters and digits only: `allowed-tools`, `"Allowed_Tools":` and `allowedTools` are one key. */
export function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** What a front matter key means for the agent's powers. */
export function classifyKey(key: string): KeyMeaning {
  const written = classifyWritten(key);
  if (written.kind === "restriction" || written.kind === "descriptive") return written;
  const skeleton = latinSkeleton(key);
  if (skeleton !== undefined) {
    const { kind } = classifyWritten(skeleton);
    if (kind === "restriction" || kind === "restriction-like")
      return { kind: "restriction-like", imitates: skeleton };
  }
  return written;
}

/** A key's meaning from its ASCII letters and digits alone. */
function classifyWritten(key: string): KeyMeaning {
  const normalized = normalizeKey(key);
  const canonical = SPELLINGS[normalized];
  if (canonical !== undefined) return { kind: "restriction", canonical };
  if (normalized === "capabilities" || normalized === "capability") {
    return { kind: "descriptive", canonical: "capabilities" };
  }
  if (RESTRICTIVE_WORDS.some((word) => normalized.includes(word))) return { kind: "restriction-like" };
  // A tool name as a key (`write: false`) switches that tool on or off.
  const tool = classifyToolName(key.replace(/[^\w-]/g, ""));
  if (tool.kind === "canonical" || tool.kind === "mcp") return { kind: "restriction-like" };
  return { kind: "other" };
}

/** The canonical name when `key` is a spelling of a restriction, else undefined. */
export function restrictionOf(key: string): RestrictionKey | undefined {
  const meaning = classifyKey(key);
  return meaning.kind === "restriction" ? meaning.canonical : undefined;
}

/** Why a file that sets one restriction under two spellings (`tools` and `allowed-tools`) is refused. */
export function setTwice(keys: readonly string[], canonical: RestrictionKey): string {
  return `${keys.join(" and ")} both set ${canonical}: it is not clear which limit is meant, so write it once`;
}

/** True for a key we read as a restriction and for one we cannot read that looks like one. */
export function isRestrictive(key: string): boolean {
  const { kind } = classifyKey(key);
  return kind === "restriction" || kind === "restriction-like";
}

/**
 * Letters of other scripts that look like Latin ones (from Unicode's confusables, for the letters
 * restriction keys are made of): a key `tоols` with a Cyrillic `о` is the `tools` a reader sees, and a
 * harness that reads keys as written ignores it.
 */
const LOOKALIKES: ReadonlyMap<string, string> = new Map(
  // Cyrillic, Greek, then Latin letters that pass for others: each pair is the letter and its look.
  "аa вb сc ԁd еe ѐe ёe һh іi їi јj кk ӏl мm пn оo рp ԛq гr ѕs тt цu ѵv ԝw хx уy ӡz АA ВB СC ЕE НH ІI ЈJ КK МM ОO РP ЅS ТT ХX УY αa βb εe ηn ιi κk νv οo ρp τt υu χx ΑA ΒB ΕE ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX ΖZ ıi ɩi ɡg ʟL ꓲI"
    .split(" ")
    .map((pair) => [pair.slice(0, -1), pair.slice(-1)]),
);

/**
 * The ASCII a key written with letters outside ASCII reads as (compatibility forms such as fullwidth
 * `ｔｏｏｌｓ` folded, accents dropped, lookalikes mapped); undefined for an ASCII key.
 */
export function latinSkeleton(text: string): string | undefined {
  if (!/[^\p{ASCII}]/u.test(text)) return undefined;
  const folded = text.normalize("NFKC").normalize("NFKD").replace(/\p{M}/gu, "");
  return [...folded].map((char) => LOOKALIKES.get(char) ?? char).join("");
}

/** `true`/`false` and their string spellings (`"true"`, `"yes"`, `"off"` …); undefined for anything else. */
export function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  if (["true", "yes", "on"].includes(text)) return true;
  if (["false", "no", "off"].includes(text)) return false;
  return undefined;
}

/**
 * Whether a front matter line nobody could read may have carried a limit: a list item naming a tool
 * (`- Bash`, orphaned from a `tools` or `disallowedTools` list) or a word such as `tools`,
 * `permission`, `deny`, `sandbox`. Losing such a line could widen the agent, so the file fails.
 * Tool names in prose (`reads the docs`) do not count: they are everyday words.
 */
export function mentionsRestriction(written: string): boolean {
  const line = latinSkeleton(written) ?? written;
  const item = /^\s*-\s*["']?([^"'()\s,]+)/.exec(line)?.[1];
  if (item !== undefined && classifyToolName(item).kind !== "unknown") return true;
  return line.split(/[^A-Za-z_-]+/).some((word) => {
    const normalized = normalizeKey(word);
    return SPELLINGS[normalized] !== undefined || RESTRICTIVE_WORDS.some((w) => normalized.includes(w));
  });
}
