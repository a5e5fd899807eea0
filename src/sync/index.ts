/** Syncing Engram into Claude Code: the MCP server set and the skills, additively, with drift reported. */
export { loadServers, readClaudeServers, projectScoped, compareServers, addCommand, shellLine, findExecutable, registerServers, desktopSnippet, type ServerSpec, type ServerState } from './mcp-sync.js';
export { syncSkills, listSkills, type SkillState } from './skills-sync.js';
