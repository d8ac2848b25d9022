#!/usr/bin/env bash
# Run the web and event-stream tests again and again on a busy machine and count the failures.
#
#   tools/stress_tests.sh [RUNS] [PYTEST ARGUMENTS...]
#
# RUNS (default 20) runs of `python -m pytest -p no:xdist tests/web` (or of the arguments given), each
# with two CPU-burning processes beside it for the whole time. The burners are bounded (they stop by
# themselves after STRESS_MAX_SECONDS, default 4 hours) and are killed, by process id, when the script
# ends or is interrupted. PYTHON names the interpreter (default .venv/bin/python when there is one).
# Prints one line per run, then the failure count and each failing test with how often it failed; the
# exit status is 1 when any run failed. Logs stay in a temporary folder named at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

runs="${1:-20}"
shift || true
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "tools/stress_tests.sh: RUNS must be a whole number of 1 or more, not '$runs'" >&2
  exit 2
fi
if [ "$#" -eq 0 ]; then
  set -- tests/web
fi
python="${PYTHON:-}"
if [ -z "$python" ]; then
  if [ -x .venv/bin/python ]; then python=.venv/bin/python; else python=python3; fi
fi
max_seconds="${STRESS_MAX_SECONDS:-14400}"
logs="$(mktemp -d "${TMPDIR:-/tmp}/stkit-stress.XXXXXX")"

burners=()
stop_burners() {
  for pid in "${burners[@]}"; do
    kill "$pid" 2>/dev/null
  done
  for pid in "${burners[@]}"; do
    wait "$pid" 2>/dev/null
  done
  burners=()
}
trap stop_burners EXIT
trap 'stop_burners; exit 130' INT
trap 'stop_burners; exit 143' TERM
for _ in 1 2; do
  timeout "$max_seconds" python3 -c 'while True: pass' &
  burners+=("$!")
done

failed_runs=0
started=$SECONDS
for ((i = 1; i <= runs; i++)); do
  log="$logs/run-$i.log"
  run_start=$SECONDS
  "$python" -m pytest -p no:xdist -q -rfE --durations=5 "$@" >"$log" 2>&1
  status=$?
  failures=$(grep -cE '^(FAILED|ERROR) ' "$log")
  load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
  echo "run $i/$runs: exit $status, $failures failing, $((SECONDS - run_start)) s, load $load"
  if [ "$status" -ne 0 ]; then
    failed_runs=$((failed_runs + 1))
    if [ "$failures" -eq 0 ]; then  # a crash or an interrupted run: show its end
      tail -n 5 "$log"
    fi
  fi
done
stop_burners

echo "failures: $failed_runs of $runs runs failed ($((SECONDS - started)) s in all; logs in $logs)"
grep -hE '^(FAILED|ERROR) ' "$logs"/run-*.log | sed -E 's/ - .*//' | sort | uniq -c | sort -rn
[ "$failed_runs" -eq 0 ]
