/** The prompt of a queued child whose model never answers (`queue-worker-main.ts`): only a cancel ends it. */
export const CANCEL_PROMPT = "Wait for your cancel.";
