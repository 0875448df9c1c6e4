#!/usr/bin/env bash
# Session 7 (run from the repository root of the GPU machine, .device/kit carried): with ACC=1
# the acceptance run of the defaults (clingo, cpu:res, cpu:fwd; 120 s), then sokoban 0308/0407 over seeds (one process per
# configuration and instance, 16 at a time).
set -uo pipefail
K=.device/kit
[ -n "${ACC:-}" ] && LIMIT=120 JOBS=16 bash scripts/host-acceptance.sh $K $OUT/acc $K/list-acc.tsv clingo,cpu:res,cpu:fwd
for c in cpu:fwd+seed=1 cpu:fwd+seed=2 cpu:fwd+seed=3 cpu:fwd+seed=4 cpu:fwd+seed=5 cpu:fwd+seed=6 cpu:res+seed=2 cpu:res+seed=3; do
    LIMIT=120 JOBS=2 CLINGO=true bash scripts/host-acceptance.sh $K $OUT/seeds/${c//[:+=]/_} $K/list-s7.tsv $c > /dev/null 2>&1 &
done
wait
cat $OUT/seeds/*/rows.jsonl > $OUT/seeds/rows.jsonl
python3 scripts/host-acceptance.py $OUT/seeds/rows.jsonl > $OUT/seeds/table.md
rm -rf $OUT/acc/lists $OUT/seeds/*/lists
cd $OUT && tar czf seeds.tgz seeds && rm -rf seeds
