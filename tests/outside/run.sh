#!/usr/bin/env bash
# Run the spec on the outside implementations whose upstream is on this machine (see README.md).
#   tests/outside/run.sh OUT_DIR [NAME...]
#   NAME: minbpe_py kelhass_py cs336_kzaher cs336_as_given cs336_fixed cs336_dilawarm minbpe_js sunadase_rs minbpe_cpp
# Each run writes OUT_DIR/NAME.json (--bpe-report) and OUT_DIR/NAME.txt; a NAME whose environment
# variable is unset is skipped with the reason. Runs one at a time (the machine is shared).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="${BPE_KATA_REPO:-$(cd "$here/../.." && pwd)}"   # BPE_KATA_REPO: judge with another checkout's spec
out="${1:?usage: run.sh OUT_DIR [NAME...]}"; shift
mkdir -p "$out"
names=("$@"); [ ${#names[@]} -eq 0 ] && names=(minbpe_py kelhass_py cs336_kzaher cs336_as_given cs336_fixed minbpe_js sunadase_rs minbpe_cpp)
export PYTHONPATH="$here:$repo${PYTHONPATH:+:$PYTHONPATH}"
for name in "${names[@]}"; do
  case "$name" in
    minbpe_py)    var=MINBPE_PY_SRC;    impl=("$here/minbpe_py.py") ;;
    kelhass_py)   var=KELHASS_PY_SRC;   impl=("$here/kelhass_py.py") ;;
    cs336_kzaher) var=CS336_KZAHER_SRC; impl=("$here/cs336_kzaher.py"); export CS336_MODE=declared ;;
    cs336_as_given) var=CS336_KZAHER_SRC; impl=("$here/cs336_kzaher.py"); export CS336_MODE=as-given ;;
    cs336_fixed)  var=CS336_KZAHER_SRC; impl=("$here/cs336_kzaher.py"); export CS336_MODE=fixed ;;
    cs336_dilawarm) var=CS336_DILAWARM_SRC; impl=("$here/cs336_dilawarm.py") ;;
    minbpe_js)    var=MINBPE_JS_DIR;    impl=(--impl "cmd:node $here/minbpe_js_server.cjs") ;;
    sunadase_rs)  var=SUNADASE_RS_BIN;  impl=(--impl "cmd:${SUNADASE_RS_BIN:-}") ;;
    minbpe_cpp)   var=MINBPE_CPP_CLI;   impl=("$here/minbpe_cpp.py") ;;
    *) echo "unknown NAME $name" >&2; exit 2 ;;
  esac
  if [ -z "${!var:-}" ]; then echo "skip $name: $var is not set (README.md says how to fetch and build it)"; continue; fi
  echo "== $name ($(uptime))"
  ( cd "$repo" && bpe-kata check "${impl[@]}" -q -p no:cacheprovider --bpe-report "$out/$name.json" > "$out/$name.txt" 2>&1 )
  echo "exit $? -> $out/$name.json"
  python3 "$here/summarise.py" "$out/$name.json" | head -3
done
