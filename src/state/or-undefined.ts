/**
 * What a synchronous look at the system gives, or undefined where it fails (the file is gone, the link
 * dangles, `/proc` is not there): for the callers that treat "cannot tell" as "absent".
 */
export function orUndefined<T>(look: () => T): T | undefined {
  try {
    return look();
  } catch {
    return undefined;
  }
}
