/** `agentry-ai/testing`: fakes at the normalized model contract for fast tests of agents and tools. */
export { type ScriptedModel, type ScriptedReply, type ScriptStep, scriptedModel } from "./scripted-model.ts";
