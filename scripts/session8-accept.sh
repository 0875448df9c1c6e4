#!/usr/bin/env bash
# Session 8 (GPU machine's CPUs, repository root, .device/kit carried): acceptance 3's list
# under clingo and the two schemes' defaults (CONFIGS, default clingo,cpu:res,cpu:fwd), LIMIT
# (default 120) s each, stopped after STOP (default 560) s of wall time so that what finished
# still comes back; rows and table packed into $OUT/accept.tgz.
set -uo pipefail
K=.device/kit
timeout "${STOP:-560}" env LIMIT="${LIMIT:-120}" JOBS=16 bash scripts/host-acceptance.sh $K \
    $OUT/accept "${LIST:-$K/list-acc.tsv}" "${CONFIGS:-clingo,cpu:res,cpu:fwd}"
echo "host-acceptance exit: $?"
if [ ! -s $OUT/accept/table.md ]; then
    cat $OUT/accept/rows/*.jsonl > $OUT/accept/rows.jsonl
    python3 scripts/host-acceptance.py $OUT/accept/rows.jsonl > $OUT/accept/table.md
fi
rm -rf $OUT/accept/lists $OUT/accept/rows
grep -A12 '^- clingo' $OUT/accept/table.md | grep '^- '
cd $OUT && tar czf accept.tgz accept && rm -rf accept
