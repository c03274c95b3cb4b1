#!/usr/bin/env bash
# The quiet benchmark sequence: waits until the load average is under 0.3 (at most 5 minutes),
# then runs each named bench in turn, each log starting with `uptime`.
#   bash bench/quiet_sequence.sh OUTDIR community catalog community catalog ... webhooks_rate webhooks_backlog
# Names: community* (bench/community.py --reuse --requests 200), catalog* (bench/catalog.py --reuse
# --requests 100 --seconds 10 --rounds 3), catalog1m* (the same on the 1M catalogue of
# MODHUB_BENCH_CATALOG_1M_URL, one throughput round), floors* (bench/catalog.py --reuse --floors-only
# --rounds 3), webhooks_rate*, webhooks_backlog*, webhooks_unpaced*.
set -u
cd "$(dirname "$0")/.."
OUT=$1; shift
mkdir -p "$OUT"
for _ in $(seq 1 60); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  awk "BEGIN{exit !($load < 0.3)}" && break
  sleep 5
done
n=0
for what in "$@"; do
  n=$((n + 1)); log="$OUT/$n-$what.log"
  uptime > "$log"
  case $what in
    community*) .venv/bin/python bench/community.py --reuse --requests 200 >> "$log" 2>&1 ;;
    catalog1m*) MODHUB_BENCH_CATALOG_URL=${MODHUB_BENCH_CATALOG_1M_URL:-postgresql+psycopg2://postgres@127.0.0.1:5432/modhub_bench_catalog_1m} \
      .venv/bin/python bench/catalog.py --reuse --resources 1000000 --requests 100 --seconds 10 --rounds 1 >> "$log" 2>&1 ;;
    floors*) .venv/bin/python bench/catalog.py --reuse --floors-only --rounds 3 --seconds 10 >> "$log" 2>&1 ;;
    catalog*) .venv/bin/python bench/catalog.py --reuse --requests 100 --seconds 10 --rounds 3 >> "$log" 2>&1 ;;
    webhooks_rate*) .venv/bin/python bench/webhooks.py --events 10000 --rate 500 >> "$log" 2>&1 ;;
    webhooks_backlog*) .venv/bin/python bench/webhooks.py --events 10000 --rate 0 --backlog >> "$log" 2>&1 ;;
    webhooks_unpaced*) .venv/bin/python bench/webhooks.py --events 10000 --rate 0 >> "$log" 2>&1 ;;
    *) echo "unknown bench: $what" >> "$log" ;;
  esac
  echo "rc=$? $(date -u)" >> "$log"
  echo "$log"
done
