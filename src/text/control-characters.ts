/** Whether `text` holds a control character (C0 or DEL): never part of a name, a path or a ref. */
export function hasControlCharacter(text: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters looked for
  return /[\u0000-\u001f\u007f]/.test(text);
}
