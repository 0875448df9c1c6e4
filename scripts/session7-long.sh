#!/usr/bin/env bash
# Session 7 (GPU machine's CPUs, repository root, .device/kit carried): the default fwd on
# sokoban 0308 with seeds 1-8 at once, LIMIT (default 400) s each; rows and table packed into
# $OUT/long.tgz.
set -uo pipefail
K=.device/kit
for s in 1 2 3 4 5 6 7 8; do
    LIMIT=${LIMIT:-400} JOBS=1 CLINGO=true bash scripts/host-acceptance.sh $K $OUT/long/fwd_seed_$s \
        $K/list-0308.tsv cpu:fwd+seed=$s > /dev/null 2>&1 &
done
wait
cat $OUT/long/*/rows.jsonl > $OUT/long/rows.jsonl
python3 scripts/host-acceptance.py $OUT/long/rows.jsonl > $OUT/long/table.md
rm -rf $OUT/long/*/lists $OUT/long/*/rows
cd $OUT && tar czf long.tgz long && rm -rf long
