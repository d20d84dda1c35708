/** Ids name files and keys, so they must not contain path separators or start with a dot or dash. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
