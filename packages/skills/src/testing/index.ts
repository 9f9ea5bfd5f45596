/**
 * Test helpers of @agent-tools/skills: a local HTTP server speaking the
 * skill registry protocol over any SkillRegistry.
 */
export { startSkillRegistryServer } from "./skill-registry-server.js";
export type { SkillRegistryServer, SkillRegistryServerOptions } from "./skill-registry-server.js";
