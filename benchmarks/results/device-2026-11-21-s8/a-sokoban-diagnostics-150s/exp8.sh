#!/bin/bash
# one job: VARIANT SEED INST LIMIT
K=.device/kit
one() {
  v=$1; seed=$2; inst=$3; lim=$4; B=$K/yasmin-rs
  case $v in
    res) env=""; fl="--learning=res";;
    res-sort) env="YA_SORT=1"; fl="--learning=res";;
    fwd) env=""; fl="--learning=fwd";;
    fwd-diag) env="YA_DIAG=1"; fl="--learning=fwd";;
    fwd-order) env="YA_ORDER=1"; fl="--learning=fwd";;
    fwd-old) env=""; fl="--learning=fwd"; B=$K/yasmin-rs-old;;
  esac
  s=$(date +%s.%N)
  out=$(env $env timeout $((lim+10)) $B --engine=cpu -q --stats --time-limit=$lim --seed=$seed $fl /tmp/g/$inst 2>/dev/null)
  e=$(date +%s.%N)
  r=$(echo "$out" | grep -E "^(SATISFIABLE|UNSATISFIABLE|UNKNOWN)" | head -1)
  c=$(echo "$out" | grep -E "^Conflicts" | head -1 | awk '{print $3}')
  printf "%s\t%s\t%s\t%s\t%.1f\t%s\n" "$v" "$seed" "$inst" "$r" $(awk "BEGIN{print $e-$s}") "$c"
}
export -f one
export K
# driver: JOBS file lines "variant seed inst limit"
[ "$1" = run ] && for i in $(awk '{print $3}' "$2" | sort -u); do mkdir -p /tmp/g/$(dirname $i); [ -f /tmp/g/$i ] || xz -dc $K/ground/$i.xz > /tmp/g/$i; done
[ "$1" = run ] && xargs -P ${P:-16} -L1 bash -c 'one "$@"' _ < "$2"
