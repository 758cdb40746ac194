// Package netclaw reads the user's NetClaw installation: it finds the
// binaries (Find), takes Netclaw.Configuration.dll out of NetClaw's
// compressed single-file binaries (OpenBundle, Bundle.ReadFile) or reads the
// plain DLL of a developer build, and extracts the assembly's embedded
// resources through its CLI metadata (ParseAssembly). It yields text and its
// source, or an error that names the file and says what to do. It reads
// disk and never writes; it imports nothing else of agentdesk.
//
// What NetClaw embeds and what it reads from the home, followed in
// netclaw-dev/netclaw: Netclaw.Configuration.csproj at 013299cf (its
// EmbeddedResource items), FileSystemPromptProvider in
// src/Netclaw.Configuration/ISystemPromptProvider.cs (the stored version
// with the deployment-playbook heading; the path's newest listed commit is
// b86f7ac0) and NetclawPaths.cs (newest listed commit 867df8e5):
//
//   - Embedded in Netclaw.Configuration.dll, and nothing else of the prompt:
//     ResourceAgents ("Netclaw.Configuration.Resources.AGENTS.md", the
//     operating core of Personal and Team) and ResourceAgentsPublic
//     ("...AGENTS.public.md", Public's). Install.OperatingCore returns them.
//   - Files in the home (<home> = NETCLAW_HOME, else ~/.netclaw), read by the
//     composer, not here: identity/SOUL.md (legacy fallback
//     soul/PERSONALITY.md), identity/TOOLING.md (suppressed for Public), and
//     the deployment playbook identity/AGENTS.md, appended to the core under
//     "# Deployment Mission and Operating Playbook". The core's {{...}}
//     placeholders ({{IDENTITY_DIR}}, {{SOUL_PATH}}, {{AGENTS_PATH}},
//     {{TOOLING_PATH}}, {{SKILLS_DIR}}, ...) name paths in the home; NetClaw
//     substitutes them, and so must the composer.
//
// Every file is read once per process: Find keeps what it read in a
// process-wide cache keyed by the file's path, size and modification time,
// so a NetClaw upgrade is noticed and a second Find costs a stat.
//
// The readers are written from the formats' public descriptions (the .NET
// single-file bundle layout in bundle.go, ECMA-335 partition II in
// assembly.go and tables.go), check every offset against the file, cap what
// they allocate, and are fuzzed. Test fixtures built from agentdesk's own
// text (a mono-mcs assembly and a bundle around it) are in testdata/netclaw
// at the top of the repository.
package netclaw
