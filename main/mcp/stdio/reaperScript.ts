// The reaper's program: a POSIX sh + awk script, so it runs beside the packaged desktop app too (which
// cannot run itself as Node). It reads one command per line from the host on stdin and keeps what it
// tracks in its record file; when its stdin closes (the host is gone, however it ended) it freezes,
// then kills, every process it tracked. Started as: sh -c 'eval "$ATRIUM_REAPER_SCRIPT"' atrium-reaper FOLDER HOSTPID INTERVAL RUN
//
// Commands: "+ PID" a server started (it leads its own process group); "- PID [PID...]" those servers
// exited: kill what they left (one pass for all: a pass scans the whole process table); "scan N" record
// the tree now, answer "scanned N"; at start it answers "reaped N" after killing what the records of
// dead hosts in FOLDER list.
//
// A record file is "host PID START", "run RUN" (older hosts wrote no run line), then one "PID START
// SERVERPID" line per tracked process. It is only ever replaced whole, so another reaper reading it never
// sees it half written and takes a living host for a dead one. A process is identified by its pid AND its
// start time, so a reused pid is never signalled. Tracked: each server, every process in its group, and
// every descendant of a tracked process, kept once seen even after it leaves the group and the session
// (setsid) and its parent dies.
//
// A daemon that forks twice is orphaned before any scan sees it, so reaping also looks for the mark
// every server's environment carries, ATRIUM_SERVER_RUN=RUN:SERVERPID (RUN: the host's random run id),
// which its descendants inherit and keep through setsid and re-parenting. It is read from each process's
// initial environment in /proc (Linux; elsewhere only the tree is walked), and only a process of a
// recorded run that started after its host is taken.
export const REAPER_SCRIPT = String.raw`
set -u
umask 077
trap '' INT TERM HUP QUIT PIPE
folder=$1 host=$2 interval=$3 run=$4
record="$folder/host-$host"
# The run id goes into a pattern: it must be the host's hex, or it is not used.
case $run in '' | *[!0-9a-f]*) run=- ;; esac

# One line per process: pid ppid pgid start.
table() {
  if [ -r /proc/self/stat ]; then
    # The command name (in parentheses) may hold spaces; the fields after its last ")" do not.
    cat /proc/[0-9]*/stat 2>/dev/null | awk '{ n = split($0, part, ")"); split(part[n], f, " "); print $1, f[2], f[3], f[20] }'
  else
    ps -A -o pid= -o ppid= -o pgid= -o lstart= | awk '{ s = $4; for (i = 5; i <= NF; i++) s = s "_" $i; print $1, $2, $3, s }'
  fi
}

# "M PID SERVERPID" for each process whose initial environment carries run $1's mark.
marked() {
  [ -r /proc/self/environ ] || return 0
  grep -a -z -o -H -s "^ATRIUM_SERVER_RUN=$1:[0-9][0-9]*\$" /proc/[0-9]*/environ | tr '\0' '\n' | awk -F '[/:=]' '{ print "M", $3, $NF }'
}

# Rewrites record file $1 from the process table: drops what ended, adds group members and descendants,
# and with $2 = "marked" the processes that carry its run's mark. It is written (atomically) only when
# that changes anything.
scan() {
  marks=
  [ $# -gt 1 ] && [ "$2" = marked ] && marks=$(sed -n 's/^run \([0-9a-f][0-9a-f]*\)$/\1/p' "$1")
  content=$(sed -n -e 1p -e '/^run /p' "$1"; { table; [ -n "$marks" ] && marked "$marks"; } | awk '
    FNR == NR { if (FNR == 1) since = $3; else if ($1 != "run") { want[$1] = $2; root[$1] = $3 } next }
    $1 == "M" { mark[$2] = $3; next }
    { parent[$1] = $2; group[$1] = $3; start[$1] = $4 }
    END {
      for (p in want) if ((p in start) && (want[p] == "?" || want[p] == start[p])) { kept[p] = root[p]; if (p == root[p]) server[p] = 1 }
      for (p in start) if (!(p in kept) && (group[p] in server)) kept[p] = group[p]
      for (p in mark) if ((p in start) && !(p in kept) && start[p] >= since) kept[p] = mark[p]
      do { grew = 0; for (p in start) if (!(p in kept) && (parent[p] in kept)) { kept[p] = kept[parent[p]]; grew = 1 } } while (grew)
      for (p in kept) print p, start[p], kept[p]
    }' "$1" - | sort -n)
  [ "$content" = "$(cat "$1")" ] || { printf '%s\n' "$content" > "$1.new" && mv -f "$1.new" "$1"; }
}

# Kills what record file $1 tracks for the servers $2 (pids, space-separated, or "all"): stop them all
# first, so none can fork or exit and orphan a child unseen, widen to what they started meanwhile, then
# SIGKILL; forgets them.
reap() {
  frozen=
  rounds=0
  while [ "$rounds" -lt 5 ]; do
    scan "$1" marked
    fresh=
    for pid in $(awk -v which="$2" 'BEGIN { n = split(which, w, " "); for (i = 1; i <= n; i++) wanted[w[i]] = 1 } FNR > 1 && $1 != "run" && (which == "all" || ($3 in wanted)) { print $1 }' "$1"); do
      case " $frozen " in *" $pid "*) ;; *) fresh="$fresh $pid" ;; esac
    done
    [ -z "$fresh" ] && break
    kill -STOP $fresh 2>/dev/null
    frozen="$frozen $fresh"
    rounds=$((rounds + 1))
  done
  [ -n "$frozen" ] && kill -KILL $frozen 2>/dev/null
  if [ "$2" != all ]; then
    awk -v which="$2" 'BEGIN { n = split(which, w, " "); for (i = 1; i <= n; i++) wanted[w[i]] = 1 } FNR == 1 || !($3 in wanted)' "$1" > "$1.new" && mv -f "$1.new" "$1"
  fi
  set -- $frozen
  reaped=$#
}

started_at() {
  table | awk -v p="$1" '$1 == p { print $4 }'
}

# What hosts that are gone left running (they were killed, and their reaper with them).
total=0
for old in "$folder"/host-*; do
  case $old in *.new | *.tick) continue ;; esac
  [ -f "$old" ] || continue
  [ "$old" = "$record" ] && continue
  read -r _ oldhost oldstart < "$old" || oldhost=
  if [ -n "$oldstart" ] && [ "$(started_at "$oldhost")" = "$oldstart" ]; then continue; fi
  reap "$old" all
  total=$((total + reaped))
  rm -f "$old" "$old.new" "$old.tick"
done
echo "reaped $total"

# A reaper started again for a living host takes over its record.
hoststart=$(started_at "$host")
header=$(printf 'host %s %s\nrun %s' "$host" "$hoststart" "$run")
if [ ! -f "$record" ] || [ "$(head -n 2 "$record")" != "$header" ]; then
  printf '%s\n' "$header" > "$record.new" && mv -f "$record.new" "$record"
fi

# At most one tick waits at a time, so a slow machine never builds a queue of scans in front of "gone".
tick_pending="$record.tick"
rm -f "$tick_pending"
{
  ( while sleep "$interval"; do [ -e "$tick_pending" ] && continue; : > "$tick_pending"; echo tick || exit 0; done ) &
  ticker=$!
  cat
  kill -KILL "$ticker" 2>/dev/null
  echo gone
} | while read -r verb arg; do
  case $verb in
    +) echo "$arg ? $arg" >> "$record" ;;
    -) reap "$record" "$arg" ;;
    scan) scan "$record"; echo "scanned $arg" ;;
    tick) rm -f "$tick_pending"; [ $(wc -l < "$record") -gt 2 ] && scan "$record" ;;
    gone) reap "$record" all; rm -f "$record" "$tick_pending"; exit 0 ;;
  esac
done
`;
