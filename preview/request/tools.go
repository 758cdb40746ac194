package request

import (
	"slices"
	"strings"
)

// The first-party tools, copied from NetClaw's source (netclaw-dev/netclaw):
// each tool's [NetclawTool] attribute (name, description, Grant) and its
// Params record (names, types, optionality, [Description]s). Each entry's
// Source names the repository, the file and the commit followed: the
// newest stored version found of that file.
//
// Three files exist in the index only in a fork of netclaw-dev/netclaw,
// salma-marei/netclaw, whose snapshot (commit
// ba08b016c9d3286e62ce64e5013d63d298264231, with
// ToolRegistrationExtensions.cs @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4)
// carries a later state of the same history than netclaw-dev's stored
// versions: ToolOutputReadTool.cs (no version of it is stored for
// netclaw-dev), and the four SQLite memory tools, whose netclaw-dev
// versions in the index are older (SqliteFindMemoriesTool.cs @3fb85514,
// SqliteGetMemoriesTool.cs @8ef8f817, SqliteStoreMemoryTool.cs @35b33868,
// SqliteUpdateMemoryTool.cs @d957b40e: the same names and grants, older
// descriptions of Ids/Id and no NewContent). Those entries name the fork.
//
// The order is the runtime's registration order, which decides the order
// of the tools on the wire and of the compressed index's groups:
// ToolRegistrationExtensions.WithFirstPartyTools (netclaw-dev @003d8a98c124b5ccfb949e7705d8c58d304f9c8c,
// and the fork's @0c8a8a64, which settles the place of file_search and
// tool_output_read: shell, file_read, file_list, file_search,
// tool_output_read, file_write, file_edit, attach_file, list_webhooks,
// web_search, web_fetch, set_working_directory, search_tools, load_tool),
// then the memory tools, which the daemon's Program.cs registers right
// after WithFirstPartyTools when Memory.Enabled (find_memories,
// get_memories, store_memory, update_memory; netclaw-dev
// src/Netclaw.Daemon/Program.cs, the stored version that gates them on
// memoryConfig.Enabled), then, as the daemon's composition root registers
// them, the skill tools (WithSkillTools, after the host is built), then
// the reminder tools, check_background_job and the webhook route tools
// set_webhook and delete_webhook (StartActors).
//
// file_read does not stay second. The fork's WithSkillTools
// (ToolRegistrationExtensions.cs @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4)
// starts with registry.ReplaceCore(new FileReadTool(...)) (the file_read
// that also reads skill files), then RegisterCore skill_load and
// skill_read_resource, Register skill_manage; the fork's stored
// src/Netclaw.Daemon/Configuration/SkillToolRegistration.cs
// (@ba08b016c9d3286e62ce64e5013d63d298264231) does the same ReplaceCore
// right before its WithSkillTools call. ToolRegistry.Replace
// (ToolRegistry.cs @ba08b016) keeps every other entry in order and appends
// the new one: file_read moves from second place to just before skill_load.
// The daemon's Program.cs (all three stored versions that call it) calls
// RegisterChannelTools then RegisterSkillTools once the app is built,
// unconditionally, so the move happens whatever the skill switches say;
// channel tools (not catalogued) would sit between the memory tools and
// file_read.
//
// Inferred, with the reason:
//   - run_reminder (RunReminderTool.cs, one stored version) is placed
//     after get_reminder_history: no stored ToolRegistrationExtensions.cs
//     or Program.cs registers it; the audience profiles list it last of
//     the scheduling tools, and ToolAccessPolicy hides it with them when
//     Scheduling.Enabled is off.
//   - spawn_agent is never offered to a sub-agent (the denylist); the
//     frontline's copy is preview.SpawnAgent.
//
// Core or deferred: the runtime registers each first-party tool in one of
// two tiers (ToolRegistry.RegisterCore or Register; ToolExposureTier), and
// a sub-agent gets the core tier from the start and the deferred one
// through search_tools and load_tool. The facts, with the commits:
//   - netclaw-dev/netclaw's newest SubAgentSpawner.cs
//     (@28ddf700169220c86c596debd17d5d8dc03bfe7c, the version with
//     PrepareRunAsync) resolves a child's tools as ResolvedSubAgentTools:
//     every registration the denylist and the audience let through, and
//     CoreToolNames, those the parent registry IsCoreTool; it hands both to
//     SubAgentActor.CreatePropsWithProjectInstructionProvider. Its
//     BackgroundChildAcceptanceTests.ToolsAndContext.cs
//     (@86d464882fa3c56eb37f55a5f0fbf5fa662c6e38) asserts
//     registry.IsCoreTool and loads a deferred tool with load_tool.
//   - No netclaw-dev version of SubAgentActor.cs, ToolRegistry.cs or
//     ToolRegistrationExtensions.cs that far is stored: their newest stored
//     netclaw-dev versions (@502847bf6f99092f50944cea1460acdb89819e23,
//     @a18e4a67cab9638a89069219c5388270aee96555 with GetAlwaysLoadedTools,
//     @003d8a98c124b5ccfb949e7705d8c58d304f9c8c with Register only) are
//     older than that spawner. The tiers themselves are therefore taken
//     from the fork salma-marei/netclaw @ba08b016c9d3286e62ce64e5013d63d298264231,
//     the only stored copy of the tiered files: ToolRegistry.cs
//     (RegisterCore, GetCoreRegistrations, IsCoreTool, BuildCompressedIndex
//     with core, deferred and MCP sections), SubAgentActor.cs (its private
//     registry: RegisterCore for the names in coreToolNames, Register for
//     the others, search_tools and load_tool registered again last, over
//     that registry; ResolveCoreAiTools seeds the offered tools;
//     TryActivateDiscoveredTool adds a deferred one after them; the system
//     prompt appends GenerateCompressedIndex(audience, policy); the fork's
//     later SubAgentActor.cs @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4,
//     88,965 bytes, does all this alike) and
//     ToolRegistrationExtensions.cs @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4
//     (WithFirstPartyTools: RegisterCore for shell_execute, file_read,
//     file_list, file_search, tool_output_read, file_write, file_edit,
//     attach_file, set_working_directory, search_tools, load_tool; Register
//     for list_webhooks, web_search, web_fetch; WithSkillTools: RegisterCore
//     for skill_load and skill_read_resource, Register for skill_manage; the
//     reminder, webhook-route and background-job tools Register).
//   - The memory tools and run_reminder are registered with Register
//     wherever they are registered: deferred.
//
// Not offered: skill_execute_resource. netclaw-dev's WithSkillTools
// (@003d8a98) registers it (SkillExecuteResourceTool.cs @8caf56f1), but
// the fork's later one (@0c8a8a64) registers skill_load,
// skill_read_resource and skill_manage only, and the fork holds no
// SkillExecuteResourceTool.cs: the newest runtime no longer offers it.
//
// CoreTools is that core tier; every other first-party tool is deferred,
// and every MCP tool too. It is the one list both sides read: the
// catalogue's Deferred flag (builtin), the frontline's session tools and
// both compressed indexes (TieredIndex).
var CoreTools = []string{
	"shell_execute", "file_read", "file_list", "file_search", "tool_output_read",
	"file_write", "file_edit", "attach_file", "set_working_directory",
	"search_tools", "load_tool", "skill_load", "skill_read_resource",
}

// IsCore reports whether NetClaw registers the first-party tool name in
// its core tier.
func IsCore(name string) bool { return slices.Contains(CoreTools, name) }

func firstParty() []Tool {
	const (
		tools     = "src/Netclaw.Actors/Tools/"
		reminders = "src/Netclaw.Actors/Reminders/"
		jobs      = "src/Netclaw.Actors/Jobs/"
		memory    = "src/Netclaw.Actors/Memory/"
		fork      = "salma-marei/netclaw "
		forkAt    = " @ba08b016c9d3286e62ce64e5013d63d298264231"
		// forkLatest is the fork's later commit, the one the first
		// message's [session] block follows.
		forkLatest = " @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4"
	)
	return []Tool{
		// shell_execute follows the fork's newest ShellTool.cs, the one that
		// runs commands with the session's managed temporary folder
		// (ManagedTemporaryEnvironment) and whose text names temp_dir, as
		// the first message's [session] block does (ToolChoiceGuidance
		// @0c8a8a64); netclaw-dev's newest stored (@8a459b11) still named
		// session_dir.
		from(fork, builtin("shell_execute", "shell", KindEffect, false, Always,
			tools+"ShellTool.cs"+forkLatest,
			"Execute local search, VCS, builds, tests, processes, or other operations requiring shell semantics. "+
				"For declared-project work, omit WorkingDirectory. Use it for one call in a named child directory. "+
				"Standard temporary APIs use temp_dir. Preserve an explicit host temporary path only when the task requires it. "+
				"Keep inline directory changes only when requested. "+
				"Start with the smallest operation that answers the request. Use one operation per call. "+
				"Keep independent searches and diagnostics separate; do not join them with separators or labels. "+
				"Add a pipeline only when the requested result requires it. Do not use shell only to verify successful structured results. "+
				"If approval is required but no interactive requester is available, do not retry or substitute the call during that turn. "+
				"After an access denial, do not retry that call during the same user turn. Do not change its scope or substitute another tool to evade the denial. "+
				"A later explicit user request can start a new call under normal approval policy. "+
				"Apply one 'Tool execution deferred:' correction unchanged. "+
				"Do not use shell for known file reads, listings, edits, or disposable text unless shell behavior is requested.",
			req("Command", "string", "The smallest shell operation that answers the request. Use one operation per call. Keep independent searches and diagnostics separate; do not join them with separators or labels. Add a pipeline only when the requested result requires it. Omit WorkingDirectory for declared-project work. Do not use shell for disposable text unless shell behavior is requested. Do not verify successful structured results with shell. If approval is required but no interactive requester is available, do not retry or substitute the call during that turn. After an access denial, do not retry that call during the same user turn. Do not change its scope or substitute another tool to evade the denial. A later explicit user request can start a new call under normal approval policy. Apply one 'Tool execution deferred:' correction unchanged."),
			opt("WorkingDirectory", "string", "Set only for one call in a named child directory or worktree. Omit for declared-project work. Standard temporary APIs use temp_dir."),
		)),
		builtin("file_list", "file", KindRead, true, Always,
			tools+"FileListTool.cs @8a459b116372b693a5b5423ef663104cb1adf338",
			"Use for a known local directory listing. List its immediate files and subdirectories without shell. "+
				"The listing has one level; it does not read file contents or recurse. Use shell for recursive repository search.",
			req("Path", "string", "Absolute path to the directory to list"),
		),
		builtin("file_search", "file", KindRead, true, Always,
			tools+"FileSearchTool.cs @d24630dff477ccf36a770eb092e369fa5a6b5916",
			"Recursively search authorized workspace files by literal file name or UTF-8 text without shell.",
			req("Root", "string", "Authorized directory to search. Relative paths use the current project, then session_dir."),
			req("Query", "string", "Literal text to find; regular expressions and executable query syntax are not accepted."),
			req("Mode", "string", "Search mode: 'name' matches file names; 'content' matches UTF-8 text lines."),
			opt("MaxResults", "integer", "Maximum matches returned (default 50, maximum 200)."),
			opt("MaxFiles", "integer", "Maximum filesystem entries inspected (default 2000, maximum 10000)."),
			opt("MaxContentBytes", "integer", "Maximum file-content bytes inspected (default 1048576, maximum 4194304)."),
		),
		from(fork, builtin("tool_output_read", "builtin", KindRead, true, Always,
			tools+"ToolOutputReadTool.cs"+forkAt,
			"Continue a truncated tool result from this session by opaque call id. Returns at most Limit characters from Start and never accepts a file path.",
			req("CallId", "string", "Opaque call id shown by the truncated tool result. Never pass a file path."),
			opt("Start", "integer", "Zero-based character offset (default 0, maximum 256000)."),
			opt("Limit", "integer", "Maximum total characters returned, including continuation metadata (default 8000, minimum 128, maximum 10000)."),
		)),
		builtin("file_write", "file", KindWrite, false, Always,
			tools+"FileWriteTool.cs @0ef13406473d0c434f83cf1b5abd71a0614275fe",
			"Use for creating or replacing a known local file without shell. Write content and create parent directories when needed.",
			req("Path", "string", "Absolute path to the file to write"),
			req("Content", "string", "Content to write to the file"),
		),
		builtin("file_edit", "file", KindWrite, false, Always,
			tools+"FileEditTool.cs @8a459b116372b693a5b5423ef663104cb1adf338",
			"Use for changing a known local file without shell. "+
				"Apply targeted text replacement with OldString/NewString, or write entire content with Content. "+
				"For targeted edits, matches literal text (not regex) and fails if OldString is not found or is ambiguous. "+
				"For full writes, creates the file and parent directories if needed. "+
				"A successful result confirms the change; do not verify it with shell unless requested.",
			req("Path", "string", "Absolute path to the file"),
			opt("OldString", "string", "The exact text to find in the file (omit when using Content for a full write)"),
			opt("NewString", "string", "The text to replace OldString with (must differ from OldString; use empty string to delete)"),
			opt("ReplaceAll", "boolean", "Replace all occurrences instead of just the first (default: false)"),
			opt("Content", "string", "Full content to write to the file, creating parent directories if needed. Mutually exclusive with OldString/NewString."),
		),
		builtin("attach_file", "file", KindEffect, false, Always,
			tools+"AttachFileTool.cs @0f85dc497d2fb02642e84af388ed97ebb00266ff",
			"Attach a file to send to the user. Paths in the current session attach directly; files from other Netclaw session folders are copied into this session first.",
			req("Path", "string", "Absolute path to the file to attach"),
			opt("DisplayName", "string", "Optional display name for the file"),
		),
		builtin("list_webhooks", "webhook_admin", KindState, true, NeedsWebhooks,
			tools+"ListWebhooksTool.cs @7084554e152d2f8bbfbd8f486595ed7c97f3e20f",
			"List configured inbound webhook routes and whether each route currently loads successfully.",
			opt("Filter", "string", "Optional filter: 'active' (default) or 'all'."),
		),
		builtin("web_search", "web", KindEffect, true, NeedsSearch,
			tools+"WebSearchTool.cs @280b2552849de4f7a806d6bd0ad2e1f1c96ad1b7",
			"Search the web and return a list of results with titles, URLs, and snippets",
			req("Query", "string", "The search query"),
			opt("MaxResults", "integer", "Maximum number of results to return (default 10, max 30)"),
		),
		builtin("web_fetch", "web", KindEffect, false, NeedsSearch,
			tools+"WebFetchTool.cs @590d2ebbf65cf407a423a73c437d148ca6b4d0e1",
			"Fetch a web page URL and save its content to a local file. Default format='raw' preserves HTML (links, images, structure); format='text' extracts plain text. Returns file path with preview. Use file_read to examine the full content.",
			req("Url", "string", "The URL to fetch"),
			opt("Format", "string", "Output format: 'raw' (default) preserves HTML structure (links, images, tables); 'text' extracts plain text only"),
		),
		builtin("set_working_directory", "file", KindState, false, Always,
			tools+"SetWorkingDirectoryTool.cs @ba381625fe9856d99860a50f0703582cbd6d1565",
			"Declare your project root and expand your trusted scope. "+
				"Once set, read-only verbs (ls, grep, cat, git status, git log, ...) inside that tree "+
				"auto-run without prompting — the safe-verb short-circuit treats the directory as a safe space. "+
				"Mutating commands still prompt, but the prompt shows the right cwd so persisted approvals are "+
				"correctly scoped. Also loads the project's identity file (AGENTS.md / CLAUDE.md / etc.) into the "+
				"system prompt. Note: shell commands that pass a path argument (e.g. `find /repo`, `ls /var/log`) "+
				"declare scope implicitly via that argument, so this tool is most useful for sessions where you'll "+
				"run multiple commands without explicit paths (git status, git diff, make build, etc.). "+
				"Use an absolute path to the project root.",
			req("Path", "string", "Absolute path to the project root directory."),
		),
		// The tiered meta tools: search_tools only lists, load_tool exposes
		// (the fork's versions, which go with the tiers; netclaw-dev's newest
		// stored SearchToolsTool.cs @0d7e52d9ae794c61e8ce6dc621263e3d6d0dac4c
		// and LoadToolTool.cs @ebaac6d6a456b565fce5e589691850e9fb4f8fcf load
		// on search and describe that).
		from(fork, builtin("search_tools", "builtin", KindMeta, true, Always,
			tools+"SearchToolsTool.cs"+forkAt,
			"Search for available tools by keyword. Returns tool names and descriptions — tools are NOT loaded until you call load_tool. "+
				"Use query='servers' to list MCP servers and query='all' with a server filter to browse one server.",
			req("Query", "string", "Search query for tools. Use 'servers' to list MCP servers. Use 'all' with server filter to list all tools in one server."),
			opt("Server", "string", "Optional MCP server name to filter results (e.g., 'memorizer')"),
		)),
		from(fork, builtin("load_tool", "builtin", KindMeta, true, Always,
			tools+"LoadToolTool.cs"+forkAt,
			"Expose a known tool schema by exact name. Use search_tools only when the exact name is unknown.",
			req("Name", "string", "Exact tool name to expose (e.g., 'notion/notion-search'). Use search_tools only when the name is unknown."),
		)),
		from(fork, builtin("find_memories", "builtin", KindState, true, NeedsMemory,
			memory+"SqliteFindMemoriesTool.cs"+forkAt,
			"Search cross-session memory for prior knowledge. Returns lightweight results (ID, title, score, snippet). "+
				"Use get_memories(ids) to load full content for selected results.",
			req("Query", "string", "Search query to find relevant memories"),
			opt("Limit", "integer", "Maximum number of results to return (default 5)"),
			opt("IncludeStale", "boolean", "Set true to include expired evidence for audit/debug search"),
		)),
		from(fork, builtin("get_memories", "builtin", KindState, true, NeedsMemory,
			memory+"SqliteGetMemoriesTool.cs"+forkAt,
			"Load full content for one or more memories by ID. "+
				"Use find_memories first to discover IDs, then get_memories to load the ones you need.",
			req("Ids", "string", `Comma-separated memory IDs to load. Copy the ids shown by find_memories, get_memories, or recall verbatim (e.g. "doc-1a2b3c, rec-9d8e7f").`),
		)),
		from(fork, builtin("store_memory", "builtin", KindState, false, NeedsMemory,
			memory+"SqliteStoreMemoryTool.cs"+forkAt,
			"Save knowledge to cross-session memory for future retrieval. "+
				"Use for solutions, decisions, research findings, and project context. "+
				"Write descriptive titles and include WHY not just WHAT.",
			req("Title", "string", "Title for the memory entry"),
			req("Content", "string", "Content to store — use markdown, include code blocks, provide full context"),
			opt("Tags", "string", "Optional comma-separated tags"),
		)),
		from(fork, builtin("update_memory", "builtin", KindState, false, NeedsMemory,
			memory+"SqliteUpdateMemoryTool.cs"+forkAt,
			"Edit or delete a memory by ID. For document edits, provide either old_text and new_text for find-and-replace, "+
				"or new_content to replace the document content. For deletion, set delete to true. Use IDs from memory recall, find_memories, or get_memories directly.",
			req("Id", "string", "Memory ID to update or delete. Copy the id shown by memory recall, find_memories, or get_memories verbatim (e.g. doc-… or rec-…)."),
			opt("OldText", "string", "Text to find in the memory content (required for document edits)"),
			opt("NewText", "string", "Replacement text for document edits or new payload for record supersede"),
			opt("NewContent", "string", "Full replacement content for document edits. Do not combine with old_text/new_text."),
			opt("Delete", "boolean", "Set to true to tombstone the memory"),
		)),
		// file_read is registered by WithFirstPartyTools (RegisterCore,
		// second), but WithSkillTools re-registers it with ReplaceCore, which
		// removes the entry and appends the new one: it ends here, just
		// before skill_load (see the order above).
		builtin("file_read", "file", KindRead, true, Always,
			tools+"FileReadTool.cs @1806907f63a16d5fbfea4d0382761c5c03f9bf46",
			"Read text files or inspect non-text files. Images can be loaded for visual inspection when the active model supports image input; PDFs/media/archives return metadata and guidance. For large text files, use StartLine and Limit to read sections.",
			req("Path", "string", "Absolute path to the file to read"),
			opt("StartLine", "integer", "Line number to start reading at, 1-based: the first line is line 1, matching the line numbers shown in this tool's output and in editors/grep/sed. To read line N, pass StartLine=N. Use with Limit to read sections of large files and avoid context window truncation."),
			opt("Limit", "integer", "Maximum number of lines to read. Use with StartLine to paginate through large files instead of reading the whole file."),
		),
		builtin("skill_load", "builtin", KindState, true, NeedsSkillSync,
			tools+"SkillLoadTool.cs @ff1d131056314a30c9122815c710b6375c5549b3",
			"Load a skill by name. Returns the skill instructions and a list of available reference files.",
			req("Name", "string", "Name of the skill to load (e.g., 'search-citation', 'netclaw-memory')"),
		),
		builtin("skill_read_resource", "builtin", KindState, true, NeedsSkillSync,
			tools+"SkillReadResourceTool.cs @85905c0d1563e7f1feffb0db4083b8a9169e272c",
			"Read a resource file from a skill's references, scripts, or assets directory.",
			req("SkillName", "string", "Name of the skill containing the resource"),
			req("ResourcePath", "string", "Relative path within the skill directory (e.g., 'references/checklist.md')"),
		),
		builtin("skill_manage", "builtin", KindState, false, Always,
			tools+"SkillManageTool.cs @93f826ac522c59e1ff37a14b47f55e5dbdc5a21d",
			"Create, edit, patch, or delete skills and their resource files. "+
				"Actions: create, edit, patch, delete, write_file, remove_file.",
			req("Action", "string", "Action to perform: create, edit, patch, delete, write_file, remove_file"),
			req("Name", "string", "Skill name (lowercase letters, numbers, hyphens)"),
			opt("Content", "string", "Full SKILL.md content for create/edit actions"),
			opt("FilePath", "string", "Relative file path within the skill for write_file/remove_file/patch"),
			opt("FileContent", "string", "File content for write_file action"),
			opt("OldString", "string", "String to find for patch action"),
			opt("NewString", "string", "Replacement string for patch action"),
			opt("ReplaceAll", "boolean", "Replace all occurrences for patch action (default: false)"),
		),
		builtin("set_reminder", "scheduling", KindState, false, NeedsScheduling,
			reminders+"SetReminderTool.cs @ea1e61a48d86628921c504118171d8dac79290c1",
			"Schedule or update a reminder by ID. If a reminder with the given ID already exists it will be updated (upsert). "+
				"Supports relative durations ('30m', '2h'), interval schedules ('every 6h'), and cron ('0 */6 * * *').",
			req("Id", "string", "Stable identifier for this reminder (kebab-case slug, e.g. 'daily-standup'). If a reminder with this ID exists it will be updated."),
			req("Name", "string", "A short human-readable title for this reminder."),
			req("Prompt", "string", "Execution instructions for this reminder."),
			req("ScheduleType", "string", "Schedule type: 'once', 'interval', or 'cron'."),
			req("Schedule", "string", "Schedule value: relative time, ISO 8601 datetime, interval duration, or cron expression."),
			opt("DeliveryKind", "string", "How to deliver results: 'current_session' (reply in this conversation), 'channel' (post to a specific target), or 'none' (silent execution). Required unless `delivery.kind` is provided."),
			opt("DeliveryTransport", "string", "Transport for channel delivery (e.g., 'slack'). Required when delivery_kind='channel'."),
			opt("DeliveryAddress", "string", "Target for channel delivery (e.g., '#general', '@user', channel ID). Required when delivery_kind='channel'."),
			opt("DeliveryRequired", "boolean", "Fail execution if delivery doesn't succeed. Default true. Set false for audit/cleanup tasks."),
			opt("DeliveryInstructions", "string", "Optional guidance for what to include in the delivery to the user. Content guidance only."),
			opt("Audience", "string", "Trust audience for this reminder's execution: 'personal' (all tools including web_search, shell), 'team' (restricted tools), or 'public' (minimal tools). Omit to inherit the creating session/channel audience."),
		),
		builtin("cancel_reminder", "scheduling", KindState, false, NeedsScheduling,
			reminders+"CancelReminderTool.cs @26cc87b5cb356d0bff8dabb0ea3db57cede96002",
			"Delete a reminder by its ID. Use list_reminders to find reminder IDs.",
			req("ReminderId", "string", "The reminder ID to cancel (returned by set_reminder or list_reminders)"),
		),
		builtin("list_reminders", "scheduling", KindState, true, NeedsScheduling,
			reminders+"ListRemindersTool.cs @ebaac6d6a456b565fce5e589691850e9fb4f8fcf",
			"List reminder definitions with IDs, schedules, status, and next fire times.",
			opt("Filter", "string", "Optional filter: 'active' (default) or 'all'."),
		),
		builtin("get_reminder_history", "scheduling", KindState, true, NeedsScheduling,
			reminders+"GetReminderHistoryTool.cs @49bc93031e72ee2c5fee98e5119928ab065198d7",
			"Get recent execution history for a reminder. Returns timestamps, success/failure, duration, and session IDs for past runs. Use the session_id to drill into a specific execution.",
			req("ReminderId", "string", "The reminder ID to fetch history for (use list_reminders to find IDs)."),
			opt("Last", "integer", "Maximum number of records to return. Defaults to 20, capped at 100."),
		),
		builtin("run_reminder", "scheduling", KindState, false, NeedsScheduling,
			reminders+"RunReminderTool.cs @386541eef5e70ce9da2431f27c3ee69fc7a54e89",
			"Run an existing reminder now to test it. The reminder's schedule does not change: a one-shot "+
				"reminder stays scheduled and a recurring reminder keeps its next fire time. The run uses the "+
				"reminder's real delivery target and is recorded in its history as a manual run. Returns the "+
				"result of the run.",
			req("Id", "string", "The reminder ID to run now (returned by set_reminder or list_reminders)."),
		),
		builtin("check_background_job", "shell", KindState, false, Always,
			jobs+"CheckBackgroundJobTool.cs @febe6522e93862d6a85cffbdad3d74518155a900",
			"Query the status of a background job or cancel it. Returns status, elapsed time, and output tail for running jobs; full result for completed jobs.",
			req("JobId", "string", "The job ID returned when the background job was submitted."),
			opt("Cancel", "boolean", "Set to true to cancel the running job."),
		),
		builtin("set_webhook", "webhook_admin", KindState, false, NeedsWebhooks,
			tools+"SetWebhookTool.cs @91342f43739f30ee66179c009dc1605c5c9a690f",
			"Create or update an inbound webhook route stored in Netclaw's webhook config directory. Use this instead of raw file access for webhook definitions.",
			req("RouteName", "string", "Stable route name used in the webhook URL path (kebab-case, for example 'github-issues')."),
			req("Prompt", "string", "Prompt overlay instructions for this route."),
			req("VerificationKind", "string", "Verification kind: 'Hmac' or 'HeaderSecret'."),
			req("Secret", "string", "Shared secret used to verify incoming requests."),
			opt("SignatureHeaderName", "string", "Optional HMAC signature header name. Defaults to X-Webhook-Signature for Hmac routes."),
			opt("SignaturePrefix", "string", "Optional HMAC signature prefix such as 'sha256='. Leave empty for raw hex signatures."),
			opt("SecretHeaderName", "string", "Optional secret header name for HeaderSecret routes. Defaults to X-Webhook-Secret."),
			opt("EventHeaderName", "string", "Optional event header name. Defaults depend on verification kind."),
			opt("DeliveryIdHeaderName", "string", "Optional delivery ID header name. Defaults depend on verification kind."),
			opt("Events", "string", "Optional comma-separated event allowlist."),
			opt("Audience", "string", "Audience: 'Public', 'Team', or 'Personal'. Omit to inherit the creating session/channel audience. A route may not exceed the creator's audience."),
			opt("NotifyInstructions", "string", "Optional notification instructions appended to the route overlay."),
			opt("DeliveryRequired", "boolean", "Whether notification delivery is required when notification instructions are present. Defaults to true."),
			opt("NotificationChannelId", "string", "Optional Slack channel ID for human-facing notifications."),
			opt("MaxBodyBytes", "integer", "Maximum accepted request body size in bytes."),
			opt("RateLimitPerMinute", "integer", "Per-route accepted requests per minute."),
			opt("Enabled", "boolean", "Whether this route is enabled. Defaults to true."),
		),
		builtin("delete_webhook", "webhook_admin", KindState, false, NeedsWebhooks,
			tools+"DeleteWebhookTool.cs @fab333da7aa74b1ae4ae08175de59d91c4e378db",
			"Delete an inbound webhook route by name. Use list_webhooks to discover route names.",
			req("RouteName", "string", "Webhook route name to delete (for example 'github-issues')."),
		),
		// check_agent_run reads or cancels a background child the session
		// started with spawn_agent. Its name, description and parameters
		// are CheckAgentRunTool's (src/Netclaw.Actors/SubAgents/CheckAgentRunTool.cs
		// @28ddf700169220c86c596debd17d5d8dc03bfe7c). Deferred: the
		// acceptance tests load it with load_tool and assert
		// !registry.IsCoreTool (BackgroundChildAcceptanceTests.ToolsAndContext.cs
		// @86d464882fa3c56eb37f55a5f0fbf5fa662c6e38), and the sub-agent
		// denylist holds it (preview.DeniedTools). Inferred: its place
		// last (no stored registration names it), and the gates it
		// shares with spawn_agent (Policy.Exposed, featureOff).
		builtin("check_agent_run", "builtin", KindState, false, Always,
			"src/Netclaw.Actors/SubAgents/CheckAgentRunTool.cs @28ddf700169220c86c596debd17d5d8dc03bfe7c",
			"Read an accepted child run and its authorized log and artifact paths, or request cancellation. "+
				"Cancellation admission and dispatch closure are separate facts.",
			req("RunId", "string", "The run_id from an accepted child start."),
			opt("Cancel", "boolean", "Set true to request cancellation."),
		),
	}
}

func builtin(name, grant string, kind Kind, readOnly bool, requires Requirement, source, description string, params ...Param) Tool {
	return Tool{
		Name: name, Description: description, Grant: grant, Params: params,
		Kind: kind, ReadOnly: readOnly, Requires: requires,
		Deferred: !IsCore(name),
		Source:   "netclaw-dev/netclaw " + source,
		schema:   GeneratedSchema(params),
	}
}

// from names the repository an entry copies when it is not
// netclaw-dev/netclaw (repo ends with a space).
func from(repo string, t Tool) Tool {
	t.Source = repo + strings.TrimPrefix(t.Source, "netclaw-dev/netclaw ")
	return t
}

func req(name, typ, description string) Param {
	return Param{Name: name, Type: typ, Description: description, Required: true}
}

func opt(name, typ, description string) Param {
	return Param{Name: name, Type: typ, Description: description}
}
