#!/bin/sh
# Side-by-side replay benchmark: agentdesk test --offline against
# promptfoo eval from its cache, same cases, same loopback server.
# Usage (from the repository root): testdata/bench/bench.sh [RUNS] [OUT] [agentdesk]
# Needs promptfoo on PATH (0.123.1 wants Node >= 22.22) and GNU time; a
# third argument "agentdesk" records and times agentdesk alone (no
# promptfoo needed).
set -eu
runs=${1:-5}
out=${2:-/tmp/agentdesk-bench}
only=${3:-}
case "$only" in
"" | agentdesk) ;;
*) echo "bench.sh: the third argument can only be agentdesk" >&2; exit 2 ;;
esac
pf() { [ "$only" != agentdesk ]; }
mkdir -p "$out"
go build -o "$out/agentdesk" ./cmd/agentdesk
go build -o "$out/gen" ./testdata/bench/gen
export OPENAI_API_KEY=dummy PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 \
	PROMPTFOO_DISABLE_SHARING=1 PROMPTFOO_DISABLE_REMOTE_GENERATION=1
for n in 200 1000; do
	d="$out/c$n"
	rm -rf "$d"
	# Record once against the loopback server, both tools; the server
	# exits with gen, so the timed replays below reach no server.
	record_pf="true"
	if pf; then
		record_pf="PROMPTFOO_CONFIG_DIR='$d/pf' PROMPTFOO_CACHE_PATH='$d/pfcache' promptfoo eval -c promptfooconfig.yaml --no-write --no-table --no-progress-bar >/dev/null"
	fi
	"$out/gen" -dir "$d" -cases "$n" -- sh -c "
		cd '$d' &&
		NETCLAW_HOME='$d/home' XDG_STATE_HOME='$d/state' '$out/agentdesk' test --record >/dev/null &&
		$record_pf"
done
: >"$out/times.txt"
echo "load before: $(cat /proc/loadavg)"
# Interleaved, so both tools see the same load.
for i in $(seq "$runs"); do
	for n in 200 1000; do
		d="$out/c$n"
		cd "$d"
		NETCLAW_HOME="$d/home" XDG_STATE_HOME="$d/state" /usr/bin/time -f "agentdesk $n %e s %M KB %U u %S s" \
			"$out/agentdesk" test --offline >/dev/null 2>>"$out/times.txt" || echo "agentdesk $n failed" >>"$out/times.txt"
		if pf; then
			PROMPTFOO_CONFIG_DIR="$d/pf" PROMPTFOO_CACHE_PATH="$d/pfcache" /usr/bin/time -f "promptfoo $n %e s %M KB %U u %S s" \
				promptfoo eval -c promptfooconfig.yaml --no-write --no-table --no-progress-bar >"$out/pf$n.log" 2>>"$out/times.txt" ||
				echo "promptfoo $n failed" >>"$out/times.txt"
		fi
		cd - >/dev/null
	done
	echo "load run $i: $(cat /proc/loadavg)"
done
echo "load after: $(cat /proc/loadavg)"
# Every run's figures (take the median of each) of wall time and max RSS per tool and size.
grep -E '^(agentdesk|promptfoo) [0-9]+ ' "$out/times.txt" | awk '
	{ k = $1 " " $2; t[k] = t[k] " " $3; m[k] = m[k] " " $5; c[k] = c[k] " " $7 + $9 }
	END { for (k in t) { print k, "wall s:" t[k], "| CPU s:" c[k], "| max RSS KB:" m[k] } }' | sort
