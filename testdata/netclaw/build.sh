#!/bin/sh
# Rebuilds dev/Netclaw.Configuration.dll from src/ with Debian's mono-mcs
# (apt-get install mono-mcs). Then run, from the repository root:
#   go test ./lint/netclaw/ -run TestGenerateFixtures -generate
# to rewrite home/bin/netclawd, the single-file bundle around the DLL.
set -eu
cd "$(dirname "$0")"
mcs -target:library -nologo -deterministic \
  -out:dev/Netclaw.Configuration.dll \
  -resource:src/AGENTS.md,Netclaw.Configuration.Resources.AGENTS.md \
  -resource:src/AGENTS.public.md,Netclaw.Configuration.Resources.AGENTS.public.md \
  src/Fixture.cs
chmod -x dev/Netclaw.Configuration.dll
