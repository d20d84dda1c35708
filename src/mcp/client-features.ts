import type { Model } from "../model/model.ts";

/**
 * What MCP servers may ask of agentry while connected, beyond tools: the client features agentry
 * declares. Roots are always the workspace. A feature without its handler is still declared where
 * servers would otherwise hide tools from us, and answers "no" with a reason (elicitation declines).
 */
export interface McpClientFeatures {
  /**
   * A person fills in a server's form (elicitation, form mode). Absent (no one to ask, e.g. a
   * non-interactive run): every request is declined.
   */
  elicit?: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;
  /** A server asks the run's model for a completion (sampling); absent, sampling is not offered. */
  sampling?: SamplingFeature;
}

export interface SamplingFeature {
  /** The run's model at the time of the request (chat's `/model` may switch it). */
  model: () => Model;
  /**
   * Resolves when the request may go to the model (a rule, the mode or a person allowed it); throws with
   * the reason when not. The permission is `mcp_sampling`, the pattern the server's name.
   */
  approve: (request: SamplingApproval, signal: AbortSignal) => Promise<void>;
}

/** What a person or a rule decides a sampling request on. */
export interface SamplingApproval {
  server: string;
  /** The last message's text, shortened: what the server wants the model to answer. */
  preview: string;
  maxTokens: number;
}

/** One question of a server's form (a property of its `requestedSchema`). */
export interface ElicitationField {
  name: string;
  title?: string;
  description?: string;
  type: "string" | "number" | "integer" | "boolean";
  required: boolean;
  default?: string | number | boolean | string[];
  /** Allowed values (an enum): one of them, or several when `multiple`. */
  options?: Array<{ value: string; title?: string }>;
  multiple?: boolean;
  /** `email`, `uri`, `date`, `date-time` for strings. */
  format?: string;
  minimum?: number;
  maximum?: number;
}

export interface ElicitationRequest {
  server: string;
  /** What the server says it needs, to show above the form. */
  message: string;
  fields: ElicitationField[];
}

export type ElicitationValue = string | number | boolean | string[];

export type ElicitationAnswer =
  | { action: "accept"; content: Record<string, ElicitationValue> }
  | { action: "decline" }
  | { action: "cancel" };
